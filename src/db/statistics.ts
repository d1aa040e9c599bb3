import { sql } from 'drizzle-orm';
import type { Db } from './client.js';
import { rowsOf } from '../lib/rows.js';

/**
 * Planner statistics and the visibility map. PostgreSQL's autovacuum keeps both fresh; PGlite has
 * no autovacuum, so without this the planner guesses row counts and value spreads (and picks a
 * whole-table scan for a filter an index serves), and every index scan visits the table's rows
 * to learn which are visible (a list's window reads only its index once VACUUM has marked the
 * pages all-visible). The rules are autovacuum's own, with its default settings: ANALYZE once
 * more than 50 rows plus 10% of the table changed since the last one; VACUUM once more than 50
 * rows plus 20% are dead, or more than 1,000 rows plus 20% were inserted since the last one.
 */
const analyzeThreshold = 50;
const analyzeScale = 0.1;
const vacuumThreshold = 50;
const vacuumInsertThreshold = 1000;
const vacuumScale = 0.2;

/** What a table needs, by the rules above. */
export interface StaleTable {
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

/** Tables whose statistics or visibility map are out of date, by the rules above. */
export async function staleTables(db: Db): Promise<StaleTable[]> {
  // The counters a session collects reach the shared statistics at most once a second; this
  // flushes them at the end of this statement, so the query after it sees every change.
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const live = sql`greatest(n_live_tup, 0)::float8`;
  const rows = rowsOf<{ relname: string; needs_vacuum: boolean; needs_analyze: boolean }>(await db.execute(sql`
    select relname, needs_vacuum, needs_analyze from (
      select relname,
        (n_dead_tup > ${vacuumThreshold}::float8 + ${vacuumScale}::float8 * ${live}
          or n_ins_since_vacuum > ${vacuumInsertThreshold}::float8 + ${vacuumScale}::float8 * ${live}) as needs_vacuum,
        n_mod_since_analyze > ${analyzeThreshold}::float8 + ${analyzeScale}::float8 * ${live} as needs_analyze
      from pg_stat_user_tables where schemaname = current_schema()
    ) t
    where needs_vacuum or needs_analyze
    order by relname`));
  return rows.map((r) => ({ table: r.relname, vacuum: r.needs_vacuum === true, analyze: r.needs_analyze === true }));
}

/** Runs VACUUM and ANALYZE where they are due; returns the names of the tables it ran them on. */
export async function refreshStatistics(db: Db): Promise<string[]> {
  const tables = await staleTables(db);
  // One table at a time: on PGlite each one holds the only connection while it runs.
  for (const { table, vacuum, analyze } of tables) {
    const name = sql.identifier(table);
    if (vacuum) await db.execute(analyze ? sql`vacuum (analyze) ${name}` : sql`vacuum ${name}`);
    else await db.execute(sql`analyze ${name}`);
  }
  return tables.map((t) => t.table);
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
