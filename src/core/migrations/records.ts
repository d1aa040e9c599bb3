import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { migrationLogs, migrations } from '../../db/schema/index.js';
import { CmsError } from '../errors.js';
import { staleHeartbeatMs, type MigrationRunner } from './port.js';
import { runningStatuses, type MigrationLogLine, type MigrationRow } from './schemas.js';

const isUuid = (value: string) => z.uuid().safeParse(value).success;

const notFound = (id: string) => new CmsError('NOT_FOUND', `Migration ${id} not found`);

/** The project's migration, locked for the transaction when asked; NOT_FOUND otherwise. */
export async function findMigration(db: Db, projectId: string, id: string, forUpdate = false): Promise<MigrationRow> {
  if (!isUuid(id)) throw notFound(id);
  const q = db.select().from(migrations).where(and(eq(migrations.id, id), eq(migrations.projectId, projectId)));
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) throw notFound(id);
  return row;
}

/**
 * What a step reads of its migration, locked for the transaction: not the report or the config,
 * which a batch neither needs nor changes (the report grows with the source).
 */
export async function lockMigrationState(db: Db, projectId: string, id: string) {
  if (!isUuid(id)) throw notFound(id);
  const [row] = await db.select({
    id: migrations.id, status: migrations.status, runnerId: migrations.runnerId, pauseRequested: migrations.pauseRequested, stats: migrations.stats,
  }).from(migrations).where(and(eq(migrations.id, id), eq(migrations.projectId, projectId))).for('update');
  if (!row) throw notFound(id);
  return row;
}

export async function writeLogs(db: Db, migrationId: string, lines: readonly MigrationLogLine[], at: Date): Promise<void> {
  if (lines.length === 0) return;
  // One insert per 500 lines keeps statements small when an inference warns a lot.
  for (let i = 0; i < lines.length; i += 500) {
    await db.insert(migrationLogs).values(lines.slice(i, i + 500).map((l) => ({
      migrationId, level: l.level, message: l.message, data: l.data ?? null, createdAt: at,
    })));
  }
}

/** Why a migration whose process stopped is failed; a dry run imports nothing, so nothing stays. */
export const runnerStoppedMessageFor = (mode: string): string => {
  const what = mode === 'dry_run' ? 'dry run' : 'migration';
  const after = mode === 'dry_run' ? 'Nothing was written; create a new migration to try again.' : 'What was imported stays; create a new migration to import again.';
  return `The process running this ${what} stopped before it finished (the server stopped, or the CLI running it ended). ${after}`;
};

/** Why a running migration is taken for dead, or null while its runner shows signs of life. */
function deathOf(row: MigrationRow, now: Date, runner: MigrationRunner | null): string | null {
  if (!row.runnerId) return 'it has no runner';
  if (runner?.isAlive(row.runnerId) === false) return `its runner (${row.runnerId}) is no longer running`;
  const beat = row.heartbeatAt ?? row.startedAt ?? row.updatedAt;
  if (now.getTime() - beat.getTime() > staleHeartbeatMs) {
    return `its runner (${row.runnerId}) has shown no sign of life since ${beat.toISOString()}`;
  }
  return null;
}

/**
 * Marks running migrations whose runner died as failed, with a log line saying so (a
 * server that stops in the middle leaves the migration failed, never half-running). Runs when a status is read and
 * when the server starts. Each row is settled by a conditional update, so a runner that just
 * showed a sign of life, or finished, is left alone.
 */
export async function settleStaleMigrations(db: Db, now: Date, runner: MigrationRunner | null, projectId?: string): Promise<number> {
  const rows = await db.select().from(migrations).where(and(
    projectId ? eq(migrations.projectId, projectId) : undefined,
    inArray(migrations.status, [...runningStatuses]),
  ));
  let settled = 0;
  for (const row of rows) {
    const why = deathOf(row, now, runner);
    if (!why) continue;
    const threshold = new Date(now.getTime() - staleHeartbeatMs);
    const [done] = await db.update(migrations).set({
      status: 'failed',
      error: runnerStoppedMessageFor(row.mode),
      finishedAt: now,
      updatedAt: now,
    }).where(and(
      eq(migrations.id, row.id),
      inArray(migrations.status, [...runningStatuses]),
      row.runnerId ? eq(migrations.runnerId, row.runnerId) : sql`${migrations.runnerId} is null`,
      // A dead process is dead whatever its heartbeat says; otherwise the heartbeat must still be old.
      runner && row.runnerId && runner.isAlive(row.runnerId) === false
        ? undefined
        : or(sql`${migrations.heartbeatAt} is null`, lt(migrations.heartbeatAt, threshold)),
    )).returning({ id: migrations.id });
    if (!done) continue;
    await writeLogs(db, row.id, [{ level: 'error', message: `${runnerStoppedMessageFor(row.mode)} (Noticed because ${why}.)`, data: { phase: row.progress.phase, status: row.status } }], now);
    settled += 1;
  }
  return settled;
}
