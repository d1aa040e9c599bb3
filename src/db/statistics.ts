import { sql } from 'drizzle-orm';
import type { Db } from './client.js';
import { rowsOf } from '../lib/rows.js';

/**
 * Planner statistics. PostgreSQL's autovacuum keeps them fresh; PGlite has no autovacuum and
 * never runs ANALYZE by itself, so without this the planner guesses row counts and value
 * spreads (and picks a whole-table scan for a filter an index serves). The rule is autovacuum's
 * own: a table is analyzed again once more than 50 rows plus 10% of it changed since the last
 * ANALYZE (or it was never analyzed and has rows).
 */
const baseThreshold = 50;
const scaleFactor = 0.1;

/** Tables whose statistics are out of date, by the rule above. */
export async function staleTables(db: Db): Promise<string[]> {
  // The counters a session collects reach the shared statistics at most once a second; this
  // flushes them at the end of this statement, so the query after it sees every change.
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const rows = rowsOf<{ relname: string }>(await db.execute(sql`
    select relname from pg_stat_user_tables
    where schemaname = current_schema()
      and n_mod_since_analyze > ${baseThreshold}::float8 + ${scaleFactor}::float8 * greatest(n_live_tup, 0)
    order by relname`));
  return rows.map((r) => r.relname);
}

/** Runs ANALYZE on the tables whose statistics are out of date; returns their names. */
export async function refreshStatistics(db: Db): Promise<string[]> {
  const tables = await staleTables(db);
  // One table at a time: on PGlite each ANALYZE holds the only connection while it runs.
  for (const table of tables) await db.execute(sql`analyze ${sql.identifier(table)}`);
  return tables;
}

export interface StatisticsRefresher {
  /** Rows were just written in bulk: statistics are refreshed once the writes pause. */
  rowsWritten(): void;
  /** Refreshes what is out of date now (after the writes pending, if any). */
  refresh(): Promise<string[]>;
}

/**
 * Refreshes statistics after bulk writes, once they pause for `quietMs` (a bulk action writes
 * item by item; one ANALYZE after the last is enough), and whenever asked. Only on PGlite
 * (`embedded`): PostgreSQL's autovacuum does it there. Never two at once; failures (the database
 * closing meanwhile) leave the statistics as they were.
 */
export function createStatisticsRefresher(db: Db, embedded: boolean, quietMs = 1000): StatisticsRefresher {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<string[]> = Promise.resolve([]);
  const refresh = (): Promise<string[]> => {
    if (!embedded) return Promise.resolve([]);
    running = running.then(() => refreshStatistics(db), () => refreshStatistics(db));
    return running;
  };
  return {
    rowsWritten() {
      if (!embedded) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => { timer = null; refresh().catch(() => {}); }, quietMs);
      // A command that ends meanwhile is not kept alive for it: `cms serve` refreshes periodically.
      timer.unref();
    },
    refresh,
  };
}
