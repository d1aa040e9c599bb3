import { bigserial, index, integer, json, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './common.js';
import { projects } from './projects.js';

export const idempotencyRecords = pgTable('idempotency_records', {
  id: id(),
  apiKeyId: uuid('api_key_id').notNull(),
  key: text('key').notNull(),
  requestHash: text('request_hash').notNull(),
  responseStatus: integer('response_status').notNull(),
  // json, not jsonb: the text is kept as written, so a replay is the first answer byte for byte (jsonb reorders keys).
  responseBody: json('response_body').notNull(),
  createdAt: createdAt(),
  expiresAt: ts('expires_at').notNull(),
}, (t) => [uniqueIndex('idempotency_key_uq').on(t.apiKeyId, t.key), index('idempotency_expiry_idx').on(t.expiresAt)]);

export interface MigrationProgress { phase: string; done: number; total: number }

export const migrations = pgTable('migrations', {
  id: id(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  sourcePlatform: text('source_platform').notNull(),
  mode: text('mode').notNull(),
  /** Source credentials, kept as given (the contract); removed with the record. */
  config: jsonb('config').$type<Record<string, unknown>>().notNull(),
  status: text('status').notNull().default('pending'),
  progress: jsonb('progress').$type<MigrationProgress>().notNull().default({ phase: 'pending', done: 0, total: 0 }),
  stats: jsonb('stats').$type<Record<string, number>>().notNull().default({}),
  report: jsonb('report').$type<Record<string, unknown>>(),
  error: text('error'),
  pauseRequested: text('pause_requested'),
  /** The process running it and its last sign of life, so a dead runner can be told apart. */
  runnerId: text('runner_id'),
  heartbeatAt: ts('heartbeat_at'),
  createdBy: text('created_by'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  startedAt: ts('started_at'),
  finishedAt: ts('finished_at'),
}, (t) => [index('migrations_project_idx').on(t.projectId, t.createdAt.desc())]);

export const migrationLogs = pgTable('migration_logs', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  migrationId: uuid('migration_id').notNull().references(() => migrations.id, { onDelete: 'cascade' }),
  level: text('level').notNull(),
  message: text('message').notNull(),
  data: jsonb('data').$type<Record<string, unknown>>(),
  createdAt: createdAt(),
}, (t) => [index('migration_logs_migration_idx').on(t.migrationId, t.id)]);
