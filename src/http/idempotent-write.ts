import { CmsError, type ErrorCode } from '../core/errors.js';
import { checkIdempotencyKey } from '../core/idempotency.js';
import type { OperationName } from '../core/registry.js';
import { statusOf } from './errors.js';
import { json } from './response.js';
import type { RequestContext } from './route.js';

// Failures a repeat must not replay: who may write, and the idempotency bookkeeping itself.
const notReplayed = new Set<ErrorCode>([
  'UNAUTHORIZED', 'FORBIDDEN', 'INVALID_PREVIEW_KEY', 'RATE_LIMITED',
  'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_REQUIRED',
]);

export interface IdempotentRequest {
  /** The operation's input, made from the request. */
  input: unknown;
  /** Identifies the request (method, path, body): a repeat under the same key must be this same request. */
  requestHash: string;
}

/**
 * A public write: a secret key with the permission, and an Idempotency-Key. The key and the
 * permission are checked before a byte of the body is read; the first answer (success, or the
 * operation's own 4xx) is stored with the write and replayed to repeats, marked
 * `Idempotent-Replayed: true`.
 */
export async function answerIdempotentWrite(
  rc: RequestContext,
  op: OperationName,
  permission: 'content:write' | 'media:write' | 'ai:use',
  readRequest: () => Promise<IdempotentRequest>,
  answer: { status: number; wrap: (result: unknown) => unknown },
): Promise<Response> {
  const actor = rc.keys.apiKey;
  if (!actor) throw new CmsError('UNAUTHORIZED', `API key required via the X-API-Key header (a secret key with ${permission})`);
  rc.actor = actor;
  await rc.cms.authorize(op, { actor });
  const key = checkIdempotencyKey(rc.headers.get('idempotency-key'));
  const result = await rc.cms.runIdempotent(op, { actor }, {
    scope: { apiKeyId: actor.keyId, key },
    read: readRequest,
    status: answer.status,
    wrap: answer.wrap,
    storedFailure: (e) => {
      const status = statusOf[e.code];
      return status >= 400 && status < 500 && !notReplayed.has(e.code) ? { status, body: e.toJSON() } : null;
    },
  });
  const headers: Record<string, string> = { 'cache-control': 'no-store' };
  if (result.replayed) headers['idempotent-replayed'] = 'true';
  return json(result.body, result.status, headers);
}
