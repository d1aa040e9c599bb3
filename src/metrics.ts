import { sql } from 'drizzle-orm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DbHandle } from './db/client.js';
import { rowsOf } from './lib/rows.js';

/**
 * The engine's Prometheus metrics (docs/operating.md), in a registry of its own: several engines
 * in one process (tests, a program using the Local API) never share or clash over a metric.
 * Counting is always on (a counter is an addition); only `GET /metrics` is switched by the
 * configuration.
 */
export interface CmsMetrics {
  readonly registry: Registry;
  /** Requests answered, by method, route pattern (never a raw path) and status. */
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** Public reads answered from the response cache (`hit`) or computed (`miss`). */
  readonly responseCache: Counter<'result'>;
  /** Webhook attempts by outcome: succeeded, failed (retried later), exhausted (no retry left). */
  readonly webhookDeliveries: Counter<'outcome'>;
  /** ButterCMS migration runs (imports) by outcome: completed, failed, paused. */
  readonly migrationRuns: Counter<'outcome'>;
  /** Adds Node's process metrics (CPU, memory, event loop), once; only a served /metrics shows them. */
  withProcessMetrics(): void;
}

/**
 * Connections the engine's pool may open: postgres.js is created with `max: 10` (src/db/client.ts)
 * and tells nothing about how many are busy; PGlite is one connection inside this process.
 */
const poolMaxConnections = { postgres: 10, pglite: 1 } as const;

export function createMetrics(handle: Pick<DbHandle, 'db' | 'driver'>): CmsMetrics {
  const registry = new Registry();
  const httpRequests = new Counter({
    name: 'cms_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const, registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'cms_http_request_duration_seconds', help: 'Time from request to the end of the answer, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const, registers: [registry],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  const responseCache = new Counter({
    name: 'cms_response_cache_total', help: 'Public reads answered from the response cache (hit) or computed (miss)',
    labelNames: ['result'] as const, registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: 'cms_webhook_deliveries_total', help: 'Webhook delivery attempts by outcome (succeeded, failed: retried later, exhausted: given up)',
    labelNames: ['outcome'] as const, registers: [registry],
  });
  const migrationRuns = new Counter({
    name: 'cms_migration_runs_total', help: 'ButterCMS migration runs (imports) ended, by outcome (completed, failed, paused)',
    labelNames: ['outcome'] as const, registers: [registry],
  });
  const pool = new Gauge({
    name: 'cms_db_pool_max_connections', help: 'Connections the database pool may open (postgres.js reports no busy/idle counts; PGlite is one in-process connection)',
    labelNames: ['driver'] as const, registers: [registry],
  });
  pool.set({ driver: handle.driver }, poolMaxConnections[handle.driver]);
  new Gauge({
    name: 'cms_webhook_outbox_depth', help: 'Webhook deliveries waiting to be sent (pending, or failed and due to be retried), read at scrape time',
    registers: [registry],
    async collect() {
      const rows = rowsOf<{ n: string | number }>(await handle.db.execute(sql`select count(*) as n from webhook_deliveries where status in ('pending', 'failed')`));
      this.set(Number(rows[0]?.n ?? 0));
    },
  });
  let processMetrics = false;
  return {
    registry, httpRequests, httpDuration, responseCache, webhookDeliveries, migrationRuns,
    withProcessMetrics() {
      if (processMetrics) return;
      processMetrics = true;
      collectDefaultMetrics({ register: registry, prefix: 'cms_' });
    },
  };
}
