import { CmsError } from '../../core/errors.js';
import type { OperationName } from '../../core/registry.js';
import type { RequestContext, RouteDef } from '../route.js';
import { answerFromEntry, cacheKey, responseOf, type CachedResponse } from '../cache.js';

/**
 * A public read (pages, collections, blog): cached per project, path, normalised query and key
 * kind (misses of the same answer at the same time share one computation); preview reads are
 * never cached. Lists carry an ETag but never answer 304 (docs/content-api.md); single reads do. Only answers that had to be made count against the rate limit: an answer from
 * the cache shows the limit as it stands (and a 304 gives back what it counted, as on every route).
 */
export function readRoute(path: string, op: OperationName, input: (rc: RequestContext) => Record<string, unknown>, single: boolean): RouteDef {
  return {
    method: 'GET',
    path,
    auth: 'key',
    countsOwnRequests: true,
    cachedRead: { single },
    op: { name: op },
    async handle(rc) {
      if (rc.actor.kind === 'anonymous') throw new CmsError('UNAUTHORIZED', 'API key required via the X-API-Key header or the api_key query parameter');
      const preview = rc.actor.kind === 'key' && rc.actor.type === 'preview';
      const projectId = rc.actor.kind === 'key' ? rc.actor.projectId : '';
      const { cache } = rc.shared;
      const make = async () => responseOf(await rc.run(op, { ...input(rc), query: [...rc.query] }), preview);
      const key = preview ? null : cacheKey(rc.url.pathname, rc.query, rc.actor.kind === 'key' ? rc.actor.type : 'other');
      let entry = key ? cache.get(projectId, key) : undefined;
      if (entry) rc.rateLimit.show();
      else {
        rc.rateLimit.count();
        // A miss: computed once for every request asking for the same answer at the same time.
        entry = key ? await cache.compute(projectId, key, make) : await make();
      }
      return respond(rc, entry, single);
    },
  };
}

/** A public read's answer from its entry: ETag, a 304 for a single read whose ETag matches, the coding asked for. */
export function respond(rc: RequestContext, entry: CachedResponse, single: boolean): Response {
  const { status, headers, body } = answerFromEntry(entry, single, rc.responseHeaders, rc.headers.get('if-none-match'), rc.headers.get('accept-encoding'));
  return new Response(body && new Uint8Array(body.buffer, body.byteOffset, body.byteLength), { status, headers });
}
