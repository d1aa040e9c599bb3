import type { AiConfig } from '../config.js';
import type { AiService } from '../core/ai/port.js';
import { CmsError, isCmsError } from '../core/errors.js';
import { createRateLimiter } from '../http/rate-limit.js';
import { anthropicBaseUrl, createAiProvider } from './provider.js';

/**
 * AI as configured: a provider when `ai.provider` and `ai.model` are set (and `ai.baseUrl` for an
 * OpenAI-compatible server), and the per-caller limit on calls. The limiter is the public API's
 * fixed-window one (http/rate-limit.ts, a pure module), with a bucket per key or member that the
 * ordinary request limit does not share.
 */
export function createAiService(config: AiConfig): AiService {
  const limiter = createRateLimiter({ requests: config.rateLimit, windowSeconds: 60 });
  const baseUrl = config.baseUrl ?? (config.provider === 'anthropic' ? anthropicBaseUrl : null);
  const provider = config.provider && config.model && baseUrl
    ? createAiProvider({ provider: config.provider, baseUrl, model: config.model, apiKey: config.apiKey, timeoutMs: config.timeoutMs, images: config.images, structuredOutputs: config.structuredOutputs })
    : null;
  return {
    provider,
    limit(caller) {
      try {
        limiter.take({ keyId: caller, address: null });
      } catch (e) {
        if (!isCmsError(e) || e.code !== 'RATE_LIMITED') throw e;
        const retryAfter = typeof e.details === 'object' && e.details !== null && 'retryAfter' in e.details && typeof e.details.retryAfter === 'number'
          ? e.details.retryAfter : 60;
        throw new CmsError('RATE_LIMITED', `Too many AI requests: ${config.rateLimit} a minute for each key and member (ai.rateLimit); retry in ${retryAfter} s`, { retryAfter });
      }
    },
  };
}
