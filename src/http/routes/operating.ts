import { timingSafeEqual } from 'node:crypto';
import { readinessChecks } from '../../readiness.js';
import { json } from '../response.js';
import type { RouteDef } from '../route.js';

/**
 * What load balancers, probes and Prometheus ask of a running server (docs/operating.md):
 * `/healthz` (the process answers), `/readyz` (it can do its work: database, its schema, media
 * storage; 503 while the server drains before it stops) and `/metrics`. No key; answers are never
 * cached; no rate limit counts them (they are `auth: 'none'` routes).
 */
export function operatingRoutes(): RouteDef[] {
  return [
    { method: 'GET', path: '/healthz', auth: 'none', handle: async () => json({ status: 'ok' }, 200, noStore) },
    {
      method: 'GET', path: '/readyz', auth: 'none',
      async handle(rc) {
        const checks = await readinessChecks(rc.cms);
        if (rc.shared.lifecycle.draining) checks.shutdown = { ok: false, reason: 'the server is shutting down' };
        const ready = Object.values(checks).every((c) => c.ok);
        return json({ status: ready ? 'ready' : 'not ready', checks }, ready ? 200 : 503, noStore);
      },
    },
    {
      method: 'GET', path: '/metrics', auth: 'none',
      async handle(rc) {
        const { enabled, token } = rc.cms.config.metrics;
        const metrics = rc.cms.metrics;
        if (!enabled || !metrics) return json({ error: { code: 'NOT_FOUND', message: 'No such route; the API lives under /api/v1/' } }, 404);
        if (token !== null && !bearerMatches(rc.headers.get('authorization'), token)) {
          return json({ error: { code: 'UNAUTHORIZED', message: 'GET /metrics needs Authorization: Bearer <CMS_METRICS_TOKEN>' } }, 401, { ...noStore, 'www-authenticate': 'Bearer' });
        }
        metrics.withProcessMetrics();
        const text = await metrics.registry.metrics();
        return new Response(text, { status: 200, headers: { 'content-type': metrics.registry.contentType, ...noStore } });
      },
    },
  ];
}

const noStore = { 'cache-control': 'no-store' };

function bearerMatches(header: string | null, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
