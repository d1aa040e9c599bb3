import { createHash } from 'node:crypto';
import { CmsError } from '../../core/errors.js';
import { checkIdempotencyKey } from '../../core/idempotency.js';
import type { OperationName } from '../../core/registry.js';
import type { RequestContext, RouteDef } from '../app.js';
import { statusOf } from '../errors.js';
import { readRoute } from './read-route.js';

/**
 * `If-Match: "3"` (or W/"3", or 3) names the version the client expects; else the body's
 * `version`, passed on as sent so that a malformed one is refused rather than ignored.
 */
function expectedVersion(rc: RequestContext, body: Record<string, unknown>): unknown {
  const header = rc.headers.get('if-match');
  if (header) {
    const m = /^(?:W\/)?"?(\d+)"?$/.exec(header.trim());
    if (!m) throw new CmsError('VALIDATION_FAILED', 'If-Match must hold the expected version, like "3"', [{ path: 'If-Match', message: 'not a version number' }]);
    return Number(m[1]);
  }
  return body.version;
}

const authFailures = new Set(['UNAUTHORIZED', 'FORBIDDEN', 'INVALID_PREVIEW_KEY', 'RATE_LIMITED', 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_REQUIRED']);

/**
 * A public write: a secret key with content:write, and an Idempotency-Key; the first answer
 * (success, or the operation's own 4xx) is stored with the write and replayed to repeats.
 */
function writeRoute(method: RouteDef['method'], path: string, op: OperationName, status: number,
  input: (rc: RequestContext, body: Record<string, unknown>) => unknown, wrap: (result: unknown) => unknown = (r) => ({ data: r })): RouteDef {
  return {
    method,
    path,
    auth: 'key',
    async handle(rc) {
      const actor = rc.keys.apiKey;
      if (!actor) throw new CmsError('UNAUTHORIZED', 'API key required via the X-API-Key header (a secret key with content:write)');
      rc.actor = actor;
      await rc.cms.authorize(op, { actor });
      const idemKey = checkIdempotencyKey(rc.headers.get('idempotency-key'));
      const raw = await rc.rawBody();
      const body = (await rc.body()) as Record<string, unknown>;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new CmsError('VALIDATION_FAILED', 'The request body must be a JSON object', [{ path: '(body)', message: 'must be an object' }]);
      }
      const requestHash = createHash('sha256').update(`${method} ${rc.url.pathname}${rc.url.search}\n${raw}`).digest('hex');
      const result = await rc.cms.runIdempotent(op, input(rc, body), { actor }, {
        scope: { apiKeyId: actor.keyId, key: idemKey, requestHash },
        status,
        wrap,
        storedFailure: (e) => {
          const s = statusOf[e.code];
          return s >= 400 && s < 500 && !authFailures.has(e.code) ? { status: s, body: e.toJSON() } : null;
        },
      });
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
      if (result.replayed) headers['idempotent-replayed'] = 'true';
      return new Response(JSON.stringify(result.body), { status: result.status, headers });
    },
  };
}

/** The update body as given (unknown members are refused by the operation), minus `version`. */
const updateBody = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'version'));

export const contentRoutes: RouteDef[] = [
  readRoute('/api/v1/pages', 'delivery.pages.list', () => ({}), false),
  readRoute('/api/v1/pages/:slug', 'delivery.pages.get', (rc) => ({ slug: rc.params.slug }), true),
  readRoute('/api/v1/collections/:type', 'delivery.items.list', (rc) => ({ collection: rc.params.type }), false),
  readRoute('/api/v1/collections/:type/:slug', 'delivery.items.get', (rc) => ({ collection: rc.params.type, slug: rc.params.slug }), true),

  writeRoute('POST', '/api/v1/pages', 'pages.create', 201, (_rc, body) => body),
  writeRoute('PUT', '/api/v1/pages/:slug', 'pages.update', 200, (rc, body) => ({
    ...updateBody(body), ref: { slug: rc.params.slug }, version: expectedVersion(rc, body),
  })),
  writeRoute('POST', '/api/v1/pages/:slug/publish', 'pages.publish', 200, (rc) => ({ ref: { slug: rc.params.slug } })),
  writeRoute('POST', '/api/v1/pages/:slug/unpublish', 'pages.unpublish', 200, (rc) => ({ ref: { slug: rc.params.slug } })),
  writeRoute('DELETE', '/api/v1/pages/:slug', 'pages.delete', 200, (rc) => ({ ref: { slug: rc.params.slug }, force: rc.query.get('force') === 'true' }), (r) => r),

  writeRoute('POST', '/api/v1/collections/:type', 'items.create', 201, (rc, body) => ({ ...body, collectionTypeSlug: rc.params.type })),
  writeRoute('PUT', '/api/v1/collections/:type/:slug', 'items.update', 200, (rc, body) => ({
    ...updateBody(body), ref: { slug: rc.params.slug }, collection: rc.params.type, version: expectedVersion(rc, body),
  })),
  writeRoute('POST', '/api/v1/collections/:type/:slug/publish', 'items.publish', 200, (rc) => ({ ref: { slug: rc.params.slug }, collection: rc.params.type })),
  writeRoute('POST', '/api/v1/collections/:type/:slug/unpublish', 'items.unpublish', 200, (rc) => ({ ref: { slug: rc.params.slug }, collection: rc.params.type })),
  writeRoute('DELETE', '/api/v1/collections/:type/:slug', 'items.delete', 200, (rc) => ({ ref: { slug: rc.params.slug }, collection: rc.params.type, force: rc.query.get('force') === 'true' }), (r) => r),
];
