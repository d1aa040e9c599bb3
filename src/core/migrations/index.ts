import { defineOperation } from '../operation.js';
import { z } from 'zod';
import { createMigration, deleteMigration, getMigration, listMigrations, migrationLogsOp, pauseMigration, startMigration } from './manage.js';
import { settleStaleMigrations } from './records.js';

/** The migrations operations, by name; core/registry.ts merges them into the one table. */
export const migrationOperations = {
  'migrations.create': createMigration,
  'migrations.start': startMigration,
  'migrations.pause': pauseMigration,
  'migrations.get': getMigration,
  'migrations.list': listMigrations,
  'migrations.logs': migrationLogsOp,
  'migrations.delete': deleteMigration,
} as const;

/**
 * Fails the running migrations (of every project) whose runner died; the server runs it when it
 * starts and every little while. Not in the registry: no door calls it.
 */
export const settleStaleMigrationsOp = defineOperation({
  name: 'migrations.settleStale',
  input: z.strictObject({}),
  access: { role: null },
  write: true,
  global: true,
  run: (ctx) => settleStaleMigrations(ctx.db, ctx.clock.now(), ctx.services.migrationRunner),
});

export {
  migrationStep, migrationSchemaStep, migrationMediaStep, migrationEntriesStep, migrationFinishStep,
  migrationBlogTermsStep, migrationBlogAuthorsStep, migrationBlogPostsStep, migrationHeartbeat, migrationAbandon, analyzeImportedTables,
} from './steps.js';
export type {
  StepRecord, StepOutput, SchemaWrite, SchemaWriteResult, MediaWrite, MediaWriteResult, MediaFileInput, EntriesWrite,
  EntriesWriteResult, NewEntry, FinishWrite, FinishEntry, FinishWriteResult, BlogTermsWrite, BlogTermsWriteResult,
  BlogAuthorInput, BlogAuthorsWrite, BlogAuthorsWriteResult, BlogPostInput, BlogPostsWrite, BlogPostsWriteResult, StoredMediaRef, SourceTimes,
} from './steps.js';
export { migrationLocalesProbe, type ProjectLocaleState, type LocalesWrite, type LocalesWriteResult } from './locales.js';
export { staleHeartbeatMs, type MigrationRunner, type MigrationRunRef } from './port.js';
export { runnerStoppedMessageFor } from './records.js';
export {
  butterConfigSchema, migrationModes, migrationStatuses, runningStatuses, isRunningStatus, toMigrationView,
  type ButterConfig, type MigrationMode, type MigrationStatus, type MigrationView, type MigrationLogView, type MigrationLogLine, type LogLevel,
} from './schemas.js';
