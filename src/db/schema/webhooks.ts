import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './common.js';
import { projects } from './projects.js';

export const webhooks = pgTable('webhooks', {
  id: id(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  events: jsonb('events').$type<string[]>().notNull(),
  headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
  active: boolean('active').notNull().default(true),
  secret: text('secret').notNull(),
  /** After a regeneration the old secret keeps signing (a second signature) until this time. */
  previousSecret: text('previous_secret'),
  previousSecretExpiresAt: ts('previous_secret_expires_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index('webhooks_project_idx').on(t.projectId)]);

/** The outbox: one row per (event, subscribed webhook), written in the transaction of the change. */
export const webhookDeliveries = pgTable('webhook_deliveries', {
  id: id(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  webhookId: uuid('webhook_id').notNull().references(() => webhooks.id, { onDelete: 'cascade' }),
  event: text('event').notNull(),
  /** The exact JSON bytes sent (and signed) on every attempt. */
  payload: text('payload').notNull(),
  status: text('status').notNull().default('pending'),
  attemptCount: integer('attempt_count').notNull().default(0),
  nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
  /** A dispatcher's lease: while it lies in the future, no other dispatcher may claim the row. */
  leaseUntil: ts('lease_until'),
  leaseOwner: text('lease_owner'),
  lastStatusCode: integer('last_status_code'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [
  index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'failed')`),
  index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt.desc()),
]);

export const webhookAttempts = pgTable('webhook_attempts', {
  id: id(),
  deliveryId: uuid('delivery_id').notNull().references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
  attemptNumber: integer('attempt_number').notNull(),
  startedAt: ts('started_at').notNull(),
  durationMs: integer('duration_ms').notNull(),
  statusCode: integer('status_code'),
  responseBody: text('response_body'),
  error: text('error'),
  success: boolean('success').notNull(),
  requestHeaders: jsonb('request_headers').$type<Record<string, string>>(),
}, (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptNumber)]);
