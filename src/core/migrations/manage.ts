import { and, asc, desc, eq, gt, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { migrationLogs, migrations } from '../../db/schema/index.js';
import { actorLabel } from '../actor.js';
import { CmsError } from '../errors.js';
import { defineOperation } from '../operation.js';
import { findMigration, settleStaleMigrations, writeLogs } from './records.js';
import {
  createMigrationInput, isRunningStatus, logLevels, migrationAccess, toMigrationView,
  type MigrationLogView, type MigrationRow, type MigrationView,
} from './schemas.js';

const idInput = z.strictObject({ id: z.string().min(1) });

const stateError = (row: MigrationRow, wanted: string): CmsError => {
  const why: Record<string, string> = {
    paused: 'a paused migration cannot be started again; create a new migration to import again',
    failed: 'a failed migration cannot be started again; create a new migration to import again',
    completed: 'it has already completed; create a new migration to import again',
    pending: 'it has not been started',
    mapping: 'it is already running',
    validating: 'it is already running',
    importing: 'it is already running',
  };
  return new CmsError('MIGRATION_STATE', `Cannot ${wanted} migration ${row.id}: it is ${row.status} (${why[row.status] ?? 'not allowed'})`, {
    status: row.status,
  });
};

/** Drops members left undefined, so the stored config reads like what was given. */
const compact = (value: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));

export const createMigration = defineOperation({
  name: 'migrations.create',
  input: createMigrationInput,
  access: migrationAccess,
  write: true,
  async run(ctx, input): Promise<MigrationView> {
    const now = ctx.clock.now();
    const [row] = await ctx.db.insert(migrations).values({
      projectId: ctx.project.id,
      sourcePlatform: input.sourcePlatform,
      mode: input.mode,
      config: compact(input.config),
      status: 'pending',
      progress: { phase: 'pending', done: 0, total: 0 },
      stats: {},
      createdBy: actorLabel(ctx.actor),
      createdAt: now,
      updatedAt: now,
    }).returning();
    await writeLogs(ctx.db, row!.id, [{ level: 'info', message: `Created (${input.mode}) by ${actorLabel(ctx.actor)}` }], now);
    return toMigrationView(row!);
  },
});

export const startMigration = defineOperation({
  name: 'migrations.start',
  input: idInput,
  access: migrationAccess,
  write: true,
  async run(ctx, input): Promise<MigrationView> {
    const row = await findMigration(ctx.db, ctx.project.id, input.id, true);
    if (row.status !== 'pending') throw stateError(row, 'start');
    const runner = ctx.services.migrationRunner;
    const now = ctx.clock.now();
    const [started] = await ctx.db.update(migrations).set({
      status: 'mapping',
      progress: { phase: 'mapping', done: 0, total: 0 },
      startedAt: now,
      updatedAt: now,
      heartbeatAt: now,
      runnerId: runner.runnerId,
      pauseRequested: null,
    }).where(eq(migrations.id, row.id)).returning();
    await writeLogs(ctx.db, row.id, [{ level: 'info', message: `Started by ${actorLabel(ctx.actor)}`, data: { runner: runner.runnerId } }], now);
    // The runner reads the record it is given, so it starts only once the start has committed.
    const ref = { id: row.id, projectId: ctx.project.id, projectSlug: ctx.project.slug };
    ctx.afterCommit(() => runner.start(ref));
    return toMigrationView(started!);
  },
});

export const pauseMigration = defineOperation({
  name: 'migrations.pause',
  input: idInput,
  access: migrationAccess,
  write: true,
  async run(ctx, input): Promise<MigrationView> {
    await settleStaleMigrations(ctx.db, ctx.clock.now(), ctx.services.migrationRunner, ctx.project.id);
    const row = await findMigration(ctx.db, ctx.project.id, input.id, true);
    if (!isRunningStatus(row.status)) throw stateError(row, 'pause');
    if (row.pauseRequested) return toMigrationView(row);
    const now = ctx.clock.now();
    const [updated] = await ctx.db.update(migrations).set({ pauseRequested: now.toISOString(), updatedAt: now })
      .where(eq(migrations.id, row.id)).returning();
    await writeLogs(ctx.db, row.id, [{ level: 'info', message: `Pause requested by ${actorLabel(ctx.actor)}; it takes effect after the current batch` }], now);
    return toMigrationView(updated!);
  },
});

// Reading a status also settles migrations whose runner died, so these two write.
export const getMigration = defineOperation({
  name: 'migrations.get',
  input: idInput,
  access: migrationAccess,
  write: true,
  async run(ctx, input): Promise<MigrationView> {
    await settleStaleMigrations(ctx.db, ctx.clock.now(), ctx.services.migrationRunner, ctx.project.id);
    return toMigrationView(await findMigration(ctx.db, ctx.project.id, input.id));
  },
});

export const listMigrations = defineOperation({
  name: 'migrations.list',
  input: z.strictObject({}),
  access: migrationAccess,
  write: true,
  async run(ctx): Promise<MigrationView[]> {
    await settleStaleMigrations(ctx.db, ctx.clock.now(), ctx.services.migrationRunner, ctx.project.id);
    const rows = await ctx.db.select().from(migrations).where(eq(migrations.projectId, ctx.project.id))
      .orderBy(desc(migrations.createdAt), desc(migrations.id));
    return rows.map(toMigrationView);
  },
});

const queryInt = (min: number, max: number) => z
  .union([z.number(), z.string().regex(/^\d+$/, 'must be a whole number').transform(Number)])
  .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

export const migrationLogsOp = defineOperation({
  name: 'migrations.logs',
  input: z.strictObject({
    id: z.string().min(1),
    /** Only lines of these levels (comma-separated or a list). */
    level: z.union([z.array(z.enum(logLevels)), z.string()]).optional(),
    /** Lines after this one (the `id` of the last line seen), for following a running migration. */
    after: queryInt(0, Number.MAX_SAFE_INTEGER).optional(),
    limit: queryInt(1, 10_000).default(1000),
  }),
  access: migrationAccess,
  write: false,
  inputError: 'INVALID_QUERY',
  async run(ctx, input): Promise<MigrationLogView[]> {
    const row = await findMigration(ctx.db, ctx.project.id, input.id);
    const levels = typeof input.level === 'string' ? input.level.split(',').map((s) => s.trim()).filter(Boolean) : input.level;
    const bad = levels?.filter((l) => !logLevels.some((level) => level === l)) ?? [];
    if (bad.length) {
      throw new CmsError('INVALID_QUERY', `Invalid query parameter level: ${bad.join(', ')} (use ${logLevels.join(', ')})`, { parameter: 'level', reason: 'unknown level' });
    }
    const rows = await ctx.db.select().from(migrationLogs).where(and(
      eq(migrationLogs.migrationId, row.id),
      input.after !== undefined ? gt(migrationLogs.id, input.after) : undefined,
      levels?.length ? inArray(migrationLogs.level, levels) : undefined,
    )).orderBy(asc(migrationLogs.id)).limit(input.limit);
    return rows.map((r) => ({ id: r.id, level: r.level, message: r.message, data: r.data ?? null, createdAt: r.createdAt.toISOString() }));
  },
});

/**
 * Deletes a migration with its log and its stored credentials. A running one is refused: pause it
 * first and delete it once it is paused, so no runner writes to a record that is gone.
 */
export const deleteMigration = defineOperation({
  name: 'migrations.delete',
  input: idInput,
  access: migrationAccess,
  write: true,
  async run(ctx, input): Promise<{ success: true; id: string }> {
    await settleStaleMigrations(ctx.db, ctx.clock.now(), ctx.services.migrationRunner, ctx.project.id);
    const row = await findMigration(ctx.db, ctx.project.id, input.id, true);
    if (isRunningStatus(row.status)) {
      throw new CmsError('MIGRATION_STATE',
        `Cannot delete migration ${row.id} while it runs (${row.status}): pause it first, and delete it once it is paused`, { status: row.status });
    }
    await ctx.db.delete(migrations).where(eq(migrations.id, row.id));
    return { success: true, id: row.id };
  },
});
