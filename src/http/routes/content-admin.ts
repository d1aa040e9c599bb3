import { runBulk, type BulkAction, type BulkOperationName } from '../../core/content/admin/index.js';
import type { EntryKind } from '../../core/content/index.js';
import { CmsError } from '../../core/errors.js';
import type { OperationName } from '../../core/registry.js';
import { expectedVersion } from '../preconditions.js';
import { json } from '../response.js';
import { bodyObject, opRoute, type RequestContext, type RouteDef } from '../route.js';

/** The body with the expected version from If-Match or the body. */
async function withVersion(rc: RequestContext): Promise<Record<string, unknown>> {
  const { version: given, ...body } = await bodyObject(rc);
  const version = expectedVersion(rc.headers, given);
  return version === undefined ? body : { ...body, version };
}

/** The :v of a versions path: a number, or 404. */
function versionParam(rc: RequestContext): number {
  if (!/^\d+$/.test(rc.params.v ?? '')) throw new CmsError('NOT_FOUND', `No version "${rc.params.v}"; versions are numbers`);
  return Number(rc.params.v);
}

/**
 * The admin list takes the public list's query (paging, sorting, filters); items may name their
 * collection (`?collection=authors`), and without one every collection's items are listed.
 */
function listQuery(rc: RequestContext, kind: EntryKind) {
  const query: Record<string, string> = {};
  for (const [k, v] of rc.query) if (k !== 'collection' && k !== 'collectionType' && !(k in query)) query[k] = v;
  if (kind === 'page') return { query };
  const collection = rc.query.get('collection') ?? rc.query.get('collectionType');
  return collection ? { collection, query } : { query };
}

type EntryVerb = 'list' | 'create' | 'get' | 'update' | 'delete' | 'publish' | 'unpublish' | 'versions' | 'version' | 'restore'
  | 'resolveConflict' | 'clone' | 'schedule' | 'unschedule' | 'autosave';

/** The operations behind the admin paths of pages, by verb (written out, so each name can be found). */
const pageOperations = {
  list: 'pages.list', create: 'pages.create', get: 'pages.get', update: 'pages.update', delete: 'pages.delete',
  publish: 'pages.publish', unpublish: 'pages.unpublish', versions: 'pages.versions', version: 'pages.version', restore: 'pages.restore',
  resolveConflict: 'pages.resolveConflict', clone: 'pages.clone', schedule: 'pages.schedule',
  unschedule: 'pages.unschedule', autosave: 'pages.autosave',
  bulk: { delete: 'pages.bulkDelete', publish: 'pages.bulkPublish', unpublish: 'pages.bulkUnpublish' },
} as const satisfies Record<EntryVerb, OperationName> & { bulk: Record<BulkAction, BulkOperationName> };

/** The same for collection items. */
const itemOperations = {
  list: 'items.list', create: 'items.create', get: 'items.get', update: 'items.update', delete: 'items.delete',
  publish: 'items.publish', unpublish: 'items.unpublish', versions: 'items.versions', version: 'items.version', restore: 'items.restore',
  resolveConflict: 'items.resolveConflict', clone: 'items.clone', schedule: 'items.schedule',
  unschedule: 'items.unschedule', autosave: 'items.autosave',
  bulk: { delete: 'items.bulkDelete', publish: 'items.bulkPublish', unpublish: 'items.bulkUnpublish' },
} as const satisfies Record<EntryVerb, OperationName> & { bulk: Record<BulkAction, BulkOperationName> };

/**
 * Every admin content path (docs/admin.md), for one kind: ids in paths, drafts included in
 * reads, the caller's role checked by each operation.
 */
function entryRoutes(kind: EntryKind, op: typeof pageOperations | typeof itemOperations): RouteDef[] {
  const base = kind === 'page' ? '/api/v1/admin/pages' : '/api/v1/admin/collection-items';
  const ref = (rc: RequestContext) => ({ ref: { id: rc.params.id } });
  const bulk = (action: BulkAction): RouteDef => ({
    method: 'POST', path: `${base}/bulk-${action}`, auth: 'session',
    // The action's own operation, once per id, as this request's actor; a role too low is told
    // before anything about the body (as a single write tells it).
    handle: async (rc) => {
      await rc.cms.authorize(op.bulk[action], { actor: rc.actor, project: rc.project });
      return json(await runBulk(op.bulk[action], await rc.body(), (name, input) => rc.run(name, input)));
    },
  });

  return [
    opRoute('GET', base, 'session', op.list, (rc) => listQuery(rc, kind), { wrap: (r) => r }),
    opRoute('POST', base, 'session', op.create, (rc) => rc.body(), { status: 201 }),
    bulk('delete'),
    bulk('publish'),
    bulk('unpublish'),
    opRoute('GET', `${base}/:id`, 'session', op.get, ref),
    opRoute('PUT', `${base}/:id`, 'session', op.update, async (rc) => ({ ...(await withVersion(rc)), ...ref(rc) })),
    opRoute('DELETE', `${base}/:id`, 'session', op.delete, (rc) => ({ ...ref(rc), force: rc.query.get('force') === 'true' }), { wrap: (r) => r }),
    opRoute('POST', `${base}/:id/publish`, 'session', op.publish, ref),
    opRoute('POST', `${base}/:id/unpublish`, 'session', op.unpublish, ref),
    opRoute('GET', `${base}/:id/versions`, 'session', op.versions, ref),
    opRoute('GET', `${base}/:id/versions/:v`, 'session', op.version, (rc) => ({ ...ref(rc), version: versionParam(rc) })),
    opRoute('POST', `${base}/:id/versions/:v/restore`, 'session', op.restore, (rc) => ({ ...ref(rc), version: versionParam(rc) })),
    opRoute('POST', `${base}/:id/resolve-conflict`, 'session', op.resolveConflict, async (rc) => ({ ...(await bodyObject(rc)), ...ref(rc) })),
    opRoute('POST', `${base}/:id/clone`, 'session', op.clone, async (rc) => ({ ...(await bodyObject(rc)), ...ref(rc) }), { status: 201 }),
    opRoute('POST', `${base}/:id/schedule`, 'session', op.schedule, async (rc) => ({ ...(await bodyObject(rc)), ...ref(rc) })),
    opRoute('DELETE', `${base}/:id/schedule`, 'session', op.unschedule, (rc) => ({ ...ref(rc), ...(rc.query.has('which') ? { which: rc.query.get('which') } : {}) })),
    opRoute('POST', `${base}/:id/autosave`, 'session', op.autosave, async (rc) => ({ ...(await withVersion(rc)), ...ref(rc) })),
  ];
}

/** Admin content paths under /api/v1/admin/pages and /api/v1/admin/collection-items. */
export const contentAdminRoutes: RouteDef[] = [...entryRoutes('page', pageOperations), ...entryRoutes('item', itemOperations)];
