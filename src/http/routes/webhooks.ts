import { bodyWithId, opRoute, pagedOpRoute, type RequestContext, type RouteDef } from '../route.js';

const base = '/api/v1/admin/webhooks';

const id = (rc: RequestContext) => ({ id: rc.params.id });

const query = (rc: RequestContext, name: string) => rc.query.get(name) ?? undefined;

/**
 * Webhook administration (docs/webhooks.md), for signed-in developers. Test and redeliver queue a
 * delivery that the dispatcher sends at once, and answer 202 with it.
 */
export const webhookRoutes: RouteDef[] = [
  pagedOpRoute(base, 'session', 'webhooks.list', () => ({})),
  opRoute('POST', base, 'session', 'webhooks.create', (rc) => rc.body(), { status: 201 }),
  opRoute('GET', `${base}/:id`, 'session', 'webhooks.get', id),
  opRoute('PUT', `${base}/:id`, 'session', 'webhooks.update', bodyWithId),
  opRoute('DELETE', `${base}/:id`, 'session', 'webhooks.delete', id),
  opRoute('POST', `${base}/:id/regenerate-secret`, 'session', 'webhooks.regenerateSecret', id),
  opRoute('POST', `${base}/:id/test`, 'session', 'webhooks.test', id, { status: 202 }),
  opRoute('GET', `${base}/:id/deliveries`, 'session', 'webhooks.deliveries', (rc) => ({
    id: rc.params.id, status: query(rc, 'status'), page: query(rc, 'page'), limit: query(rc, 'limit'),
  }), { wrap: (r) => r }),
  opRoute('POST', `${base}/:id/deliveries/:deliveryId/redeliver`, 'session', 'webhooks.redeliver',
    (rc) => ({ id: rc.params.id, deliveryId: rc.params.deliveryId }), { status: 202 }),
];
