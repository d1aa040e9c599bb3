import { CmsError } from '../core/errors.js';

export interface RateLimitState {
  headers: Record<string, string>;
}

/**
 * A fixed window per API key: `requests` per `windowSeconds`. Answers carry the IETF draft
 * RateLimit-* headers; over the limit the request is refused with 429 and Retry-After.
 */
export function createRateLimiter(limit: { requests: number; windowSeconds: number } | null, now: () => number = Date.now) {
  const windows = new Map<string, { start: number; used: number }>();
  return function take(keyId: string): Record<string, string> {
    if (!limit) return {};
    const t = now();
    const windowMs = limit.windowSeconds * 1000;
    let w = windows.get(keyId);
    if (!w || t - w.start >= windowMs) {
      if (windows.size > 50_000) windows.clear();
      w = { start: t - ((t - (w?.start ?? t)) % windowMs), used: 0 };
      windows.set(keyId, w);
    }
    const reset = Math.max(1, Math.ceil((w.start + windowMs - t) / 1000));
    if (w.used >= limit.requests) {
      throw new CmsError('RATE_LIMITED', `Too many requests for this key: ${limit.requests} per ${limit.windowSeconds} s; retry in ${reset} s`, {
        retryAfter: reset, headers: { 'ratelimit-limit': String(limit.requests), 'ratelimit-remaining': '0', 'ratelimit-reset': String(reset) },
      });
    }
    w.used++;
    return { 'ratelimit-limit': String(limit.requests), 'ratelimit-remaining': String(limit.requests - w.used), 'ratelimit-reset': String(reset) };
  };
}
