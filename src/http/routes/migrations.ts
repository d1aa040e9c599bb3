import { opRoute, pagedOpRoute, type RequestContext, type RouteDef } from '../route.js';

const base = '/api/v1/admin/migrations';

const id = (rc: RequestContext) => ({ id: rc.params.id });
const query = (rc: RequestContext, name: string) => rc.query.get(name) ?? undefined;

/**
 * Migrations from ButterCMS (docs/migrating-from-buttercms.md), for signed-in developers. Start answers 202: the
 * migration runs in the background of the server; its record shows how far it got.
 */
export const migrationRoutes: RouteDef[] = [
  pagedOpRoute(base, 'session', 'migrations.list', () => ({})),
  opRoute('POST', base, 'session', 'migrations.create', (rc) => rc.body(), { status: 201 }),
  opRoute('GET', `${base}/:id`, 'session', 'migrations.get', id),
  opRoute('DELETE', `${base}/:id`, 'session', 'migrations.delete', id),
  opRoute('POST', `${base}/:id/start`, 'session', 'migrations.start', id, { status: 202 }),
  opRoute('POST', `${base}/:id/pause`, 'session', 'migrations.pause', id, { status: 202 }),
  opRoute('GET', `${base}/:id/logs`, 'session', 'migrations.logs', (rc) => ({
    id: rc.params.id, level: query(rc, 'level'), after: query(rc, 'after'), limit: query(rc, 'limit'),
  })),
];
