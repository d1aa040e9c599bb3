import { sql } from 'drizzle-orm';
import { appliedQuery, shippedDatabaseMigrations } from './db/client.js';
import { rowsOf } from './lib/rows.js';
import type { Cms } from './runtime.js';

/**
 * What `GET /readyz` checks (docs/operating.md): the database answers, every shipped schema
 * migration is applied, and media storage can be reached and written (the data folder is writable, or the bucket answers).
 */
export interface Check {
  ok: boolean;
  reason?: string;
}

/** Each check is bounded in time: a database that hangs makes the server not ready, never a hung probe. */
const checkTimeoutMs = 3000;

export async function readinessChecks(cms: Cms): Promise<Record<string, Check>> {
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
    check(() => cms.services.mediaFiles.check()),
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
    return { ok: false, reason: reasonOf(e) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The driver's own words: drizzle wraps a failed query as "Failed query: <sql>" with the driver's
 * error as its cause, and the SQL says nothing of why (the connection refused, closed, the
 * database not accepting connections).
 */
function reasonOf(e: unknown): string {
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : e;
  return cause instanceof Error ? cause.message : String(cause);
}
