import { createHash } from 'node:crypto';
import type { OperationName } from '../../core/registry.js';
import { answerIdempotentWrite } from '../idempotent-write.js';
import { expectedVersion } from '../preconditions.js';
import { bodyObject, type RequestContext, type RouteDef } from '../route.js';
import { readRoute } from './read-route.js';

/**
 * A public write with a JSON body: a secret key with content:write and an Idempotency-Key; the
 * request hash covers method, path, query and the body as sent.
 */
function writeRoute(method: RouteDef['method'], path: string, op: OperationName, status: number,
  input: (rc: RequestContext, body: Record<string, unknown>) => unknown, wrap: (result: unknown) => unknown = (r) => ({ data: r })): RouteDef {
  return {
    method,
    path,
    auth: 'key',
    op: { name: op, status },
    handle: (rc) => answerIdempotentWrite(rc, op, 'content:write', async () => {
      const raw = await rc.rawBody();
      const body = await bodyObject(rc);
      const requestHash = createHash('sha256').update(`${method} ${rc.url.pathname}${rc.url.search}\n${raw}`).digest('hex');
      return { input: input(rc, body), requestHash };
    }, { status, wrap }),
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
    ...updateBody(body), ref: { slug: rc.params.slug }, version: expectedVersion(rc.headers, body.version),
  })),
  writeRoute('POST', '/api/v1/pages/:slug/publish', 'pages.publish', 200, (rc) => ({ ref: { slug: rc.params.slug } })),
  writeRoute('POST', '/api/v1/pages/:slug/unpublish', 'pages.unpublish', 200, (rc) => ({ ref: { slug: rc.params.slug } })),
  writeRoute('DELETE', '/api/v1/pages/:slug', 'pages.delete', 200, (rc) => ({ ref: { slug: rc.params.slug }, force: rc.query.get('force') === 'true' }), (r) => r),

  writeRoute('POST', '/api/v1/collections/:type', 'items.create', 201, (rc, body) => ({ ...body, collectionTypeSlug: rc.params.type })),
  writeRoute('PUT', '/api/v1/collections/:type/:slug', 'items.update', 200, (rc, body) => ({
    ...updateBody(body), ref: { slug: rc.params.slug }, collection: rc.params.type, version: expectedVersion(rc.headers, body.version),
  })),
  writeRoute('POST', '/api/v1/collections/:type/:slug/publish', 'items.publish', 200, (rc) => ({ ref: { slug: rc.params.slug }, collection: rc.params.type })),
  writeRoute('POST', '/api/v1/collections/:type/:slug/unpublish', 'items.unpublish', 200, (rc) => ({ ref: { slug: rc.params.slug }, collection: rc.params.type })),
  writeRoute('DELETE', '/api/v1/collections/:type/:slug', 'items.delete', 200, (rc) => ({ ref: { slug: rc.params.slug }, collection: rc.params.type, force: rc.query.get('force') === 'true' }), (r) => r),
];
