import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { webhookDeliveries, webhooks } from '../../db/schema/index.js';
import type { EventKind } from '../context.js';

/**
 * The NOTIFY channel that announces committed outbox rows. A NOTIFY sent inside a transaction is
 * delivered only when it commits, so a dispatcher in another process (a server beside a CLI
 * command on PostgreSQL) learns of new deliveries at once, and never of rolled-back ones.
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
  if (inTransaction) {
    const byProject = hooksOfTransaction.get(db) ?? new Map<string, SubscribedHook[]>();
    byProject.set(projectId, hooks);
    hooksOfTransaction.set(db, byProject);
  }
  return hooks;
}

const isTransaction = (db: Db): boolean => 'rollback' in db && typeof db.rollback === 'function';

/**
 * Writes one delivery row per active webhook subscribed to the event, in the caller's
 * transaction: a change that rolls back leaves no delivery, a committed one never loses it.
 * The payload bytes are built once, here, and signed and sent as they are on every attempt.
 */
export async function writeOutbox(db: Db, projectId: string, kind: EventKind, data: unknown, now: Date): Promise<number> {
  const hooks = await activeWebhooks(db, projectId);
  const subscribed = hooks.filter((h) => h.events.includes(kind) || h.events.includes('*'));
  if (subscribed.length === 0) return 0;
  const payload = JSON.stringify({ event: kind, timestamp: now.toISOString(), data });
  await db.insert(webhookDeliveries).values(
    subscribed.map((h) => ({ projectId, webhookId: h.id, event: kind, payload, nextAttemptAt: now, createdAt: now, updatedAt: now })),
  );
  await notifyOutbox(db, projectId);
  return subscribed.length;
}
