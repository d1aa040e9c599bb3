import { CmsError, type ErrorCode } from '../core/errors.js';

export const statusOf: Record<ErrorCode, number> = {
  UNAUTHORIZED: 401,
  INVALID_PREVIEW_KEY: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  INVALID_QUERY: 400,
  INVALID_FILTER_FIELD: 400,
  INVALID_JSON_FIELD_PATH: 400,
  VALIDATION_FAILED: 400,
  REQUIRED_FIELDS_MISSING: 400,
  IDEMPOTENCY_KEY_REQUIRED: 400,
  IDEMPOTENCY_KEY_REUSED: 422,
  IDEMPOTENCY_KEY_IN_USE: 409,
  SLUG_EXISTS: 409,
  VERSION_CONFLICT: 409,
  HAS_REFERENCES: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  MIGRATION_STATE: 409,
  CONFLICT: 409,
  BAD_REQUEST: 400,
  SERVER_BUSY: 503,
  INTERNAL: 500,
  PUBLISH_FAILED: 500,
  UNPUBLISH_FAILED: 500,
  AI_NOT_CONFIGURED: 503,
  AI_PROVIDER_ERROR: 502,
  INVALID_ARCHIVE: 400,
};

export interface ErrorResponse {
  status: number;
  body: { error: { code: string; message: string; details?: unknown } };
}

/** A CmsError keeps its code; anything else is logged and answered 500 with no internals. */
export function toErrorResponse(error: unknown, log: (e: unknown) => void): ErrorResponse {
  if (error instanceof CmsError) return { status: statusOf[error.code], body: error.toJSON() };
  log(error);
  return { status: 500, body: { error: { code: 'INTERNAL', message: 'Internal server error' } } };
}
