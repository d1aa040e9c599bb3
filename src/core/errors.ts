/** The error codes the API answers with (docs/content-api.md lists them). The core knows codes only; doors map them to statuses. */
export const errorCodes = [
  'UNAUTHORIZED',
  'INVALID_PREVIEW_KEY',
  'FORBIDDEN',
  'NOT_FOUND',
  'INVALID_QUERY',
  'INVALID_FILTER_FIELD',
  'INVALID_JSON_FIELD_PATH',
  'VALIDATION_FAILED',
  'REQUIRED_FIELDS_MISSING',
  'IDEMPOTENCY_KEY_REQUIRED',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_USE',
  'SLUG_EXISTS',
  'VERSION_CONFLICT',
  'HAS_REFERENCES',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'MIGRATION_STATE',
  'CONFLICT',
  'BAD_REQUEST',
  'SERVER_BUSY',
  'INTERNAL',
  'PUBLISH_FAILED',
  'UNPUBLISH_FAILED',
  'AI_NOT_CONFIGURED',
  'AI_PROVIDER_ERROR',
  'INVALID_ARCHIVE',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface Issue {
  path: string;
  message: string;
}

export class CmsError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'CmsError';
    this.code = code;
    this.details = details;
  }

  /** The safe JSON form: what a client or the CLI may see. */
  toJSON(): { error: { code: ErrorCode; message: string; details?: unknown } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

export const isCmsError = (e: unknown): e is CmsError => e instanceof CmsError;

export const notFound = (what: string) => new CmsError('NOT_FOUND', `${what} not found`);

export const validationFailed = (issues: Issue[], message = 'Validation failed') =>
  new CmsError('VALIDATION_FAILED', `${message}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
