import type { LanguageModel, ModelMessage } from 'ai';
import type { AiProviderName } from '../config.js';
import { MalformedAnswer, type AiAnswer, type AiProvider, type AiRequest } from '../core/ai/port.js';
import { CmsError } from '../core/errors.js';
import { cutText } from '../lib/cut-text.js';

// The library prints its warnings (an unknown model's token limit, say) to the console, which
// would land in the CLI's --json output: they are not for the person at the terminal.
globalThis.AI_SDK_LOG_WARNINGS = false;

/** The most tokens an answer may take: the features ask for short texts. */
const maxOutputTokens = 2048;

/**
 * The AI SDK and its providers (about a megabyte of modules, OpenTelemetry's API among them),
 * loaded on the first request to a model: a CLI command or a server that never asks one does not
 * pay for them at start.
 */
const loadSdk = async () => {
  const [anthropic, openaiCompatible, ai] = await Promise.all([import('@ai-sdk/anthropic'), import('@ai-sdk/openai-compatible'), import('ai')]);
  return { ...ai, createAnthropic: anthropic.createAnthropic, createOpenAICompatible: openaiCompatible.createOpenAICompatible };
};
type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/** Anthropic's own address, used when `ai.baseUrl` is not set for that provider. */
export const anthropicBaseUrl = 'https://api.anthropic.com/v1';

export interface ReadyAiConfig {
  provider: AiProviderName;
  baseUrl: string;
  model: string;
  apiKey: string | null;
  timeoutMs: number;
  images: boolean;
  structuredOutputs: boolean;
}

/**
 * The one module that talks to an AI provider, through the AI SDK: the configured model, a
 * structured answer validated by the feature's zod schema, a timeout, and every failure turned
 * into AI_PROVIDER_ERROR with the provider's status and a short reason. The API key goes into the
 * request headers and nowhere else: reasons are scrubbed of it before they leave this module.
 */
export function createAiProvider(config: ReadyAiConfig): AiProvider {
  const modelOf = (sdk: Sdk): LanguageModel => (config.provider === 'anthropic'
    ? sdk.createAnthropic({ baseURL: config.baseUrl, apiKey: config.apiKey ?? '' })(config.model)
    : sdk.createOpenAICompatible({
      name: 'openai-compatible', baseURL: config.baseUrl, ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      supportsStructuredOutputs: config.structuredOutputs,
    }).chatModel(config.model));
  let ready: Promise<{ sdk: Sdk; model: LanguageModel }> | null = null;
  const load = () => (ready ??= loadSdk().then((sdk) => ({ sdk, model: modelOf(sdk) })));

  const scrub = (text: string): string => (config.apiKey ? text.split(config.apiKey).join('[redacted]') : text);
  const fail = (status: number | null, reason: string, retryAfter?: number): CmsError => {
    const short = cutText(scrub(reason).replace(/\s+/g, ' ').trim(), 300);
    return new CmsError('AI_PROVIDER_ERROR',
      `The AI provider (${config.provider}, model ${config.model}) failed${status ? ` with status ${status}` : ''}: ${short}`,
      { provider: config.provider, model: config.model, status, reason: short, ...(retryAfter ? { retryAfter } : {}) });
  };

  async function attempt<T>({ sdk, model }: { sdk: Sdk; model: LanguageModel }, request: AiRequest<T>): Promise<AiAnswer<T>> {
    const messages: ModelMessage[] = [{
      role: 'user',
      content: request.image
        ? [{ type: 'text', text: request.prompt }, { type: 'image', image: request.image.data, mediaType: request.image.mediaType }]
        : request.prompt,
    }];
    const result = await sdk.generateObject({
      model,
      schema: request.schema,
      schemaName: request.schemaName,
      system: request.system,
      messages,
      // The library's own retries wait and try again on 429 and 5xx; a caller waiting on a
      // request is better told at once (with the provider's Retry-After). Malformed answers are
      // retried once below.
      maxRetries: 0,
      maxOutputTokens,
      abortSignal: AbortSignal.timeout(config.timeoutMs),
    });
    return {
      object: result.object,
      tokens: { inputTokens: tokenCount(result.usage.inputTokens), outputTokens: tokenCount(result.usage.outputTokens) },
    };
  }

  /** A count the provider reported, or null (unknown) for what no count is: negative, fractional, past 32 bits. */
  function tokenCount(n: number | undefined): number | null {
    return n !== undefined && Number.isInteger(n) && n >= 0 && n <= 2_147_483_647 ? n : null;
  }

  function translate(sdk: Sdk, e: unknown): CmsError {
    if (e instanceof CmsError) return e;
    if (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')) {
      return fail(null, `no answer within ${Math.round(config.timeoutMs / 1000)} s (ai.timeoutMs)`);
    }
    if (sdk.APICallError.isInstance(e)) {
      if (e.statusCode === undefined) return fail(null, `could not reach ${config.baseUrl}: ${causeOf(e)}`);
      const retryAfter = Number(e.responseHeaders?.['retry-after']);
      return fail(e.statusCode, reasonOf(e.responseBody) ?? e.message, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined);
    }
    if (sdk.NoObjectGeneratedError.isInstance(e)) {
      return fail(null, 'the model\'s answer did not have the expected shape, twice; try again, or a more capable model');
    }
    if (e instanceof Error && e.name === 'AI_LoadAPIKeyError') return fail(null, 'the provider needs an API key: set CMS_AI_API_KEY');
    return fail(null, e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  }

  return {
    provider: config.provider,
    model: config.model,
    acceptsImages: config.images,
    async generate(request) {
      const loaded = await load();
      try {
        return await attempt(loaded, request);
      } catch (e) {
        // An answer that is not the shape asked for: told with its tokens (callAi records the
        // call, and asks once more).
        if (loaded.sdk.NoObjectGeneratedError.isInstance(e)) {
          const usage = e.usage;
          throw new MalformedAnswer(
            { inputTokens: tokenCount(usage?.inputTokens), outputTokens: tokenCount(usage?.outputTokens) },
            translate(loaded.sdk, e),
          );
        }
        throw translate(loaded.sdk, e);
      }
    },
  };
}

/** The provider's own words, when its error body is the usual `{ error: { message } }` (or a string). */
function reasonOf(body: string | undefined): string | null {
  if (!body) return null;
  try {
    const parsed: unknown = JSON.parse(body);
    const error = typeof parsed === 'object' && parsed !== null && 'error' in parsed ? parsed.error : null;
    if (typeof error === 'string') return error;
    if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') return error.message;
  } catch {
    // Not JSON: the text itself, cut short.
  }
  return cutText(body, 200);
}

function causeOf(e: InstanceType<Sdk['APICallError']>): string {
  const cause: unknown = e.cause;
  if (cause instanceof Error) {
    const inner: unknown = cause.cause;
    return inner instanceof Error ? inner.message : cause.message;
  }
  return e.message;
}
