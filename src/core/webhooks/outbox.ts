import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { webhookDeliveries, webhooks } from '../../db/schema/index.js';
import type { EventKind } from '../context.js';

/**
 * The NOTIFY channel that announces committed outbox rows, so a dispatcher in another process (a
 * server beside a CLI command on PostgreSQL) learns of new deliveries at once, and never of
 * rolled-back ones: the engine sends it after an emitting write commits; the webhook operations
 * that queue deliveries themselves send it inside their transaction (delivered at its commit).
 */
export const outboxChannel = 'cms_webhook_outbox';

/** Transactions that have sent their NOTIFY already (a bulk write emits many events, one NOTIFY does). */
const notified = new WeakSet<Db>();

export async function notifyOutbox(db: Db, projectId: string): Promise<void> {
  if (notified.has(db)) return;
  await db.execute(sql`select pg_notify(${outboxChannel}, ${projectId})`);
  // Only a transaction is remembered: outside one, every call is its own commit.
  if (isTransaction(db)) notified.add(db);
}

interface SubscribedHook {
  id: string;
  events: string[];
}

/** A bulk write emits many events in one transaction: the webhooks are read once for all of them. */
const hooksOfTransaction = new WeakMap<Db, Map<string, SubscribedHook[]>>();

async function activeWebhooks(db: Db, projectId: string): Promise<SubscribedHook[]> {
  const inTransaction = isTransaction(db);
  const cached = inTransaction ? hooksOfTransaction.get(db)?.get(projectId) : undefined;
  if (cached) return cached;
  const hooks = await db
    .select({ id: webhooks.id, events: webhooks.events })
    .from(webhooks)
    .where(and(eq(webhooks.projectId, projectId), eq(webhooks.active, true)));
  if (inTransaction) keepForTransaction(db, projectId, hooks);
  return hooks;
}

function keepForTransaction(db: Db, projectId: string, hooks: SubscribedHook[]): void {
  const byProject = hooksOfTransaction.get(db) ?? new Map<string, SubscribedHook[]>();
  byProject.set(projectId, hooks);
  hooksOfTransaction.set(db, byProject);
}

export const isTransaction = (db: Db): boolean => 'rollback' in db && typeof db.rollback === 'function';

/**
 * The project's active webhooks as one column of another query: a write that reads a row first
 * anyway (its content type) reads them in the same statement, one round trip less, and keeps
 * them for its transaction's events with keepActiveWebhooks. A JSON array of [id, events].
 */
export const activeWebhooksColumn = (projectId: string) => sql<unknown>`(select coalesce(json_agg(json_build_array(${webhooks.id}, ${webhooks.events})), '[]'::json) from ${webhooks} where ${webhooks.projectId} = ${projectId} and ${webhooks.active})`;

const hooksColumnSchema = z.array(z.tuple([z.string(), z.array(z.string())]));

/** Whether the transaction `db` knows the project's active webhooks already (a bulk write reads them once). */
export const knowsActiveWebhooks = (db: Db, projectId: string): boolean => hooksOfTransaction.get(db)?.has(projectId) ?? false;

/** Keeps what activeWebhooksColumn read for the rest of the transaction `db` (outside one: nothing). */
export function keepActiveWebhooks(db: Db, projectId: string, column: unknown): void {
  if (!isTransaction(db)) return;
  // Parsed by the driver, or handed over as text: either is read.
  const parsed = hooksColumnSchema.parse(typeof column === 'string' ? JSON.parse(column) : column);
  keepForTransaction(db, projectId, parsed.map(([id, events]) => ({ id, events })));
}

/** A delivery row, built when its event is emitted and inserted with the others of its transaction. */
export interface OutboxRow {
  projectId: string;
  webhookId: string;
  event: EventKind;
  payload: string;
  at: Date;
}

/**
 * The delivery rows of one event: one per active webhook subscribed to it (the webhooks are read
 * once per transaction). The payload bytes are built once, here, and signed and sent as they are
 * on every attempt.
 */
export async function outboxRowsOf(db: Db, projectId: string, kind: EventKind, data: unknown, now: Date, locales?: readonly string[]): Promise<OutboxRow[]> {
  const hooks = await activeWebhooks(db, projectId);
  const subscribed = hooks.filter((h) => h.events.includes(kind) || h.events.includes('*'));
  if (subscribed.length === 0) return [];
  // `locales` only when given (projects with several locales): otherwise the payload of before.
  const payload = JSON.stringify(locales ? { event: kind, timestamp: now.toISOString(), locales, data } : { event: kind, timestamp: now.toISOString(), data });
  return subscribed.map((h) => ({ projectId, webhookId: h.id, event: kind, payload, at: now }));
}

/** Rows per statement: one JSON parameter each, so no limit on parameters applies. */
const rowsPerInsert = 2000;

/**
 * Inserts the delivery rows of a transaction's events, in the caller's transaction and in the
 * order they were emitted: a change that rolls back leaves no delivery, a committed one never
 * loses it. The rows go as one JSON parameter per statement (a bulk write of hundreds of events
 * costs one statement, not hundreds). The caller announces them after the commit.
 *
 * A webhook deleted since the transaction read the project's webhooks gets no delivery: each row's
 * webhook is locked (FOR KEY SHARE) as the row goes in, and one a delete removed, or is removing,
 * is skipped. Without it the write failed on the delivery's foreign key (a 500, the change lost)
 * whenever a webhook was deleted while it ran. A delete that comes after waits for the write, and
 * its deliveries go with the webhook.
 */
export async function insertOutbox(db: Db, rows: readonly OutboxRow[]): Promise<void> {
  // Every statement sent at once (in order): a write's last statements go out with its COMMIT
  // (finishTransaction), so none may wait for another's answer.
  const inserts: Array<Promise<unknown>> = [];
  for (let start = 0; start < rows.length; start += rowsPerInsert) {
    const json = JSON.stringify(rows.slice(start, start + rowsPerInsert).map((r) => [r.projectId, r.webhookId, r.event, r.payload, r.at.toISOString()]));
    inserts.push(db.execute(sql`
      insert into ${webhookDeliveries} (project_id, webhook_id, event, payload, next_attempt_at, created_at, updated_at)
      select (r->>0)::uuid, (r->>1)::uuid, r->>2, r->>3, (r->>4)::timestamptz, (r->>4)::timestamptz, (r->>4)::timestamptz
      from jsonb_array_elements(${json}::jsonb) with ordinality as x(r, n)
      where exists (select 1 from ${webhooks} w where w.id = (r->>1)::uuid for key share)
      order by n`));
  }
  await Promise.all(inserts);
}
