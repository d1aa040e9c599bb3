import { runBulk, type BulkAction } from '../../core/content/admin/index.js';
import type { EntryKind } from '../../core/content/index.js';
import { CmsError } from '../../core/errors.js';
import type { OperationName } from '../../core/registry.js';
import { opRoute, type RequestContext, type RouteDef } from '../route.js';
import { json } from '../response.js';

type Body = Record<string, unknown>;
const bodyOf = async (rc: RequestContext): Promise<Body> => {
  const b = await rc.body();
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as Body) : {};
};

/** `If-Match: "3"` (or W/"3", or 3), else `version` in the body: the version the client expects. */
function expectedVersion(rc: RequestContext, body: Body): unknown {
  const header = rc.headers.get('if-match');
  if (!header) return body.version;
  const m = /^(?:W\/)?"?(\d+)"?$/.exec(header.trim());
  if (!m) throw new CmsError('VALIDATION_FAILED', 'If-Match must hold the expected version, like "3"', [{ path: 'If-Match', message: 'not a version number' }]);
  return Number(m[1]);
}

/** The body with the expected version from If-Match or the body. */
async function withVersion(rc: RequestContext): Promise<Body> {
  const { version: _given, ...body } = await bodyOf(rc);
  const version = expectedVersion(rc, { version: _given });
  return version === undefined ? body : { ...body, version };
}

/** The admin list takes the public list's query (paging, sorting, filters); items name their collection. */
function listQuery(rc: RequestContext, kind: EntryKind) {
  const query: Record<string, string> = {};
  for (const [k, v] of rc.query) if (k !== 'collection' && k !== 'collectionType' && !(k in query)) query[k] = v;
  if (kind === 'page') return { query };
  const collection = rc.query.get('collection') ?? rc.query.get('collectionType');
  if (!collection) {
    throw new CmsError('INVALID_QUERY', 'Invalid query parameter collection: name the collection type, like ?collection=authors', {
      parameter: 'collection', reason: 'required',
    });
  }
  return { collection, query };
}

/**
 * Every admin content path of the contract and decisions §8, for one kind: ids in paths,
 * drafts included in reads, the caller's role checked by each operation.
 */
function entryRoutes(kind: EntryKind): RouteDef[] {
  const base = kind === 'page' ? '/api/v1/admin/pages' : '/api/v1/admin/collection-items';
  const p = kind === 'page' ? 'pages' : 'items';
  const op = (verb: string) => `${p}.${verb}` as OperationName;
  const ref = (rc: RequestContext) => ({ ref: { id: rc.params.id } });
  const bulk = (action: BulkAction): RouteDef => ({
    method: 'POST', path: `${base}/bulk-${action}`, auth: 'session',
    handle: async (rc) => json(await runBulk((name, input) => rc.run(name as OperationName, input), kind, action, await rc.body())),
  });

  return [
    opRoute('GET', base, 'session', op('list'), (rc) => listQuery(rc, kind), { wrap: (r) => r }),
    opRoute('POST', base, 'session', op('create'), (rc) => rc.body(), { status: 201 }),
    bulk('delete'),
    bulk('publish'),
    bulk('unpublish'),
    opRoute('GET', `${base}/:id`, 'session', op('get'), ref),
    opRoute('PUT', `${base}/:id`, 'session', op('update'), async (rc) => ({ ...(await withVersion(rc)), ...ref(rc) })),
    opRoute('DELETE', `${base}/:id`, 'session', op('delete'), (rc) => ({ ...ref(rc), force: rc.query.get('force') === 'true' }), { wrap: (r) => r }),
    opRoute('POST', `${base}/:id/publish`, 'session', op('publish'), ref),
    opRoute('POST', `${base}/:id/unpublish`, 'session', op('unpublish'), ref),
    opRoute('GET', `${base}/:id/versions`, 'session', op('versions'), ref),
    opRoute('POST', `${base}/:id/versions/:v/restore`, 'session', op('restore'), (rc) => {
      if (!/^\d+$/.test(rc.params.v ?? '')) throw new CmsError('NOT_FOUND', `No version "${rc.params.v}"; versions are numbers`);
      return { ...ref(rc), version: Number(rc.params.v) };
    }),
    opRoute('POST', `${base}/:id/resolve-conflict`, 'session', op('resolveConflict'), async (rc) => ({ ...(await bodyOf(rc)), ...ref(rc) })),
    opRoute('POST', `${base}/:id/clone`, 'session', op('clone'), async (rc) => ({ ...(await bodyOf(rc)), ...ref(rc) }), { status: 201 }),
    opRoute('POST', `${base}/:id/schedule`, 'session', op('schedule'), async (rc) => ({ ...(await bodyOf(rc)), ...ref(rc) })),
    opRoute('DELETE', `${base}/:id/schedule`, 'session', op('unschedule'), ref),
    opRoute('POST', `${base}/:id/autosave`, 'session', op('autosave'), async (rc) => ({ ...(await withVersion(rc)), ...ref(rc) })),
  ];
}

/** Admin content paths under /api/v1/admin/pages and /api/v1/admin/collection-items. */
export const contentAdminRoutes: RouteDef[] = [...entryRoutes('page'), ...entryRoutes('item')];
