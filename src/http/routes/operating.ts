import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { appliedQuery, shippedDatabaseMigrations } from '../../db/client.js';
import { rowsOf } from '../../lib/rows.js';
import type { Cms } from '../../runtime.js';
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

export interface Check {
  ok: boolean;
  reason?: string;
}

/** Each check is bounded in time: a database that hangs makes the server not ready, never a hung probe. */
const checkTimeoutMs = 3000;

async function readinessChecks(cms: Cms): Promise<Record<string, Check>> {
  const [database, migrations, storage] = await Promise.all([
    check(async () => { await cms.db.execute(sql`select 1`); }),
    check(async () => {
      const row = rowsOf<{ n: string | number; m: string | number | null }>(await cms.db.execute(sql.raw(appliedQuery)))[0];
      const shipped = shippedDatabaseMigrations();
      const applied = Number(row?.n ?? 0);
      if (applied < shipped.count || Number(row?.m ?? 0) < shipped.last) {
        throw new Error(`${shipped.count - applied} database migration(s) not applied yet`);
      }
    }),
    check(() => writableFolder(join(cms.config.dataDir, 'media'))),
  ]);
  return { database, migrations, storage };
}

async function check(run: () => Promise<void>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${checkTimeoutMs} ms`)), checkTimeoutMs);
  });
  try {
    await Promise.race([run(), timeout]);
    return { ok: true };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Media files live in the data folder today (the disk store makes the project folders on first
 * write): the folder, or the nearest one above it that exists, must be writable by this process.
 */
async function writableFolder(folder: string): Promise<void> {
  let at = folder;
  for (;;) {
    const found = await stat(at).then((s) => s, () => null);
    if (found) {
      if (!found.isDirectory()) throw new Error(`${at} is not a folder`);
      await access(at, constants.W_OK | constants.X_OK).catch(() => { throw new Error(`the media folder ${at} is not writable`); });
      return;
    }
    const up = dirname(at);
    if (up === at) throw new Error(`no folder of ${folder} exists`);
    at = up;
  }
}
