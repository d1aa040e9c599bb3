import type { Actor } from '../actor.js';
import type { Ctx } from '../context.js';
import { CmsError, isCmsError } from '../errors.js';
import { MalformedAnswer, type AiAnswer, type AiProvider, type AiRequest, type AiTokens } from './port.js';
import { recordUsage, type AiFeature } from './usage.js';

/** What to set to turn AI on: named in every AI_NOT_CONFIGURED answer. */
export const notConfiguredMessage =
  'AI is not configured: set ai.provider ("openai-compatible" or "anthropic"), ai.model and ai.baseUrl in cms.config.json '
  + '(or CMS_AI_PROVIDER, CMS_AI_MODEL, CMS_AI_BASE_URL; the API key in CMS_AI_API_KEY). See docs/ai.md';

/** The configured provider, or 503 AI_NOT_CONFIGURED naming the settings. */
export function providerOf(ctx: Ctx): AiProvider {
  const provider = ctx.services.ai.provider;
  if (!provider) throw new CmsError('AI_NOT_CONFIGURED', notConfiguredMessage);
  return provider;
}

/** Whose budget a call spends: each key and each member has its own; the terminal and the server's jobs have none. */
function callerOf(actor: Actor): string | null {
  switch (actor.kind) {
    case 'user': return `user:${actor.userId}`;
    case 'key': return `key:${actor.keyId}`;
    case 'terminal':
    case 'system':
    case 'anonymous':
      return null;
  }
}

/**
 * A feature's call to the provider: each call counted against the caller's AI limit first, timed,
 * and recorded in the usage table however it ends (the provider's failure is recorded, then
 * thrown). An answer that is not the shape asked for is recorded as a failed call with the tokens
 * it reported, and asked for once more. Never inside a transaction: AI operations are reads that
 * write only afterwards.
 */
export async function callAi<T>(ctx: Ctx, feature: AiFeature, request: AiRequest<T>): Promise<AiAnswer<T>> {
  const provider = providerOf(ctx);
  const caller = callerOf(ctx.actor);
  for (let tries = 1; ; tries++) {
    if (caller) ctx.services.ai.limit(caller);
    const started = performance.now();
    const record = (outcome: string, tokens: AiTokens | null) => recordUsage(ctx, {
      feature, provider: provider.provider, model: provider.model, outcome,
      inputTokens: tokens?.inputTokens ?? null, outputTokens: tokens?.outputTokens ?? null,
      durationMs: Math.round(performance.now() - started),
    });
    let answer: AiAnswer<T>;
    try {
      answer = await provider.generate(request);
    } catch (e) {
      if (e instanceof MalformedAnswer) {
        await record('AI_PROVIDER_ERROR', e.tokens);
        if (tries < 2) continue;
        throw e.failure;
      }
      await record(isCmsError(e) ? e.code : 'INTERNAL', null);
      throw e;
    }
    await record('ok', answer.tokens);
    return answer;
  }
}
