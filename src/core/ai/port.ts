import type { z } from 'zod';

/** An image handed to the model (alt text). */
export interface AiImage {
  data: Uint8Array;
  mediaType: string;
}

/** One structured request: instructions, the user's material, and the shape the answer must have. */
export interface AiRequest<T> {
  /** The instructions (src/ai/prompts.ts). */
  system: string;
  /** The material: the text the feature sends, as docs/ai.md lists it. */
  prompt: string;
  image?: AiImage | undefined;
  /** What the answer must look like; checked by the library (a mismatch is MalformedAnswer, asked once more by callAi). */
  schema: z.ZodType<T>;
  schemaName: string;
}

/** Tokens as the provider reported them (null when it did not). */
export interface AiTokens {
  inputTokens: number | null;
  outputTokens: number | null;
}

export interface AiAnswer<T> {
  object: T;
  tokens: AiTokens;
}

/**
 * An answer that is not the shape asked for: the call's tokens (it was answered, and paid for),
 * and the error to tell when the answer asked for again is no better.
 */
export class MalformedAnswer extends Error {
  constructor(readonly tokens: AiTokens, readonly failure: Error) {
    super(failure.message);
    this.name = 'MalformedAnswer';
  }
}

/**
 * The AI provider (src/ai/provider.ts, the only module that talks to one). A failure is thrown as
 * CmsError AI_PROVIDER_ERROR with the provider's status and a short reason (never the API key),
 * carrying the tokens spent so far in `tokensOf`.
 */
export interface AiProvider {
  /** Which provider and model answer (recorded with each call's usage). */
  readonly provider: string;
  readonly model: string;
  /** Whether the model accepts images (the `ai.images` setting). */
  readonly acceptsImages: boolean;
  generate<T>(request: AiRequest<T>): Promise<AiAnswer<T>>;
}

/**
 * AI as the core sees it: the provider when one is configured, and the per-caller limit on calls.
 * `limit` throws RATE_LIMITED (details `{ retryAfter }`) for a caller over its budget.
 */
export interface AiService {
  provider: AiProvider | null;
  limit(caller: string): void;
}
