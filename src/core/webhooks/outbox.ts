import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { webhookDeliveries, webhooks } from '../../db/schema/index.js';
import type { EventKind } from '../context.js';

/**
 * Writes one delivery row per active webhook subscribed to the event, in the caller's
 * transaction: a change that rolls back leaves no delivery, a committed one never loses it.
 * The payload bytes are built once, here, and signed and sent as they are on every attempt.
 */
export async function writeOutbox(db: Db, projectId: string, kind: EventKind, data: unknown, now: Date): Promise<number> {
  const hooks = await db
    .select({ id: webhooks.id, events: webhooks.events })
    .from(webhooks)
    .where(and(eq(webhooks.projectId, projectId), eq(webhooks.active, true)));
  const subscribed = hooks.filter((h) => h.events.includes(kind) || h.events.includes('*'));
  if (subscribed.length === 0) return 0;
  const payload = JSON.stringify({ event: kind, timestamp: now.toISOString(), data });
  await db.insert(webhookDeliveries).values(
    subscribed.map((h) => ({ projectId, webhookId: h.id, event: kind, payload, nextAttemptAt: now, createdAt: now, updatedAt: now })),
  );
  return subscribed.length;
}
