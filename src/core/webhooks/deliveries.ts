import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { webhookAttempts, webhookDeliveries } from '../../db/schema/index.js';
import { CmsError } from '../errors.js';
import { paginationOf, type Pagination } from '../media/schemas.js';
import { defineOperation } from '../operation.js';
import { findWebhook, webhookAccess } from './manage.js';
import { notifyOutbox } from './outbox.js';
import type { WebhookPassSummary } from './port.js';
import { deliveryStatuses, toAttemptView, toDeliveryView, type AttemptView, type DeliveryView } from './schemas.js';

/** What `webhooks.test` sends: a page in the write shape, marked as a sample. */
export function samplePage(now: Date): Record<string, unknown> {
  const at = now.toISOString();
  return {
    id: '00000000-0000-4000-8000-000000000000',
    pageTypeId: '00000000-0000-4000-8000-000000000001',
    name: 'Sample page',
    slug: 'sample-page',
    status: 'published',
    draftContent: { title: 'Hello from the webhook test' },
    publishedContent: { title: 'Hello from the webhook test' },
    seo: { metaTitle: 'Sample page' },
    version: 2,
    createdAt: at,
    updatedAt: at,
    publishedAt: at,
    test: true,
  };
}

const inactive = () => new CmsError('VALIDATION_FAILED', 'The webhook is inactive; activate it first (update with active: true)', [
  { path: 'active', message: 'the webhook is inactive' },
]);

/**
 * Queues a `page.updated` delivery with sample data for this webhook only (whatever it
 * subscribes to). Like every delivery it is sent by the dispatcher: at once by a running server
 * (the commit wakes it), or by `cms webhooks process`.
 */
export const testWebhook = defineOperation({
  name: 'webhooks.test',
  input: z.strictObject({ id: z.string().min(1) }),
  access: webhookAccess,
  write: true,
  async run(ctx, input): Promise<DeliveryView> {
    const hook = await findWebhook(ctx.db, ctx.project.id, input.id);
    if (!hook.active) throw inactive();
    const now = ctx.clock.now();
    const payload = JSON.stringify({ event: 'page.updated', timestamp: now.toISOString(), data: samplePage(now) });
    const [row] = await ctx.db.insert(webhookDeliveries).values({
      projectId: ctx.project.id, webhookId: hook.id, event: 'page.updated', payload, nextAttemptAt: now, createdAt: now, updatedAt: now,
    }).returning();
    await notifyOutbox(ctx.db, ctx.project.id);
    return toDeliveryView(row!, []);
  },
});

export const listDeliveries = defineOperation({
  name: 'webhooks.deliveries',
  input: z.strictObject({
    id: z.string().min(1),
    status: z.enum(deliveryStatuses).optional(),
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  }),
  inputError: 'INVALID_QUERY',
  access: webhookAccess,
  write: false,
  async run(ctx, input): Promise<{ data: DeliveryView[]; pagination: Pagination }> {
    const hook = await findWebhook(ctx.db, ctx.project.id, input.id);
    const where = input.status
      ? and(eq(webhookDeliveries.webhookId, hook.id), eq(webhookDeliveries.status, input.status))
      : eq(webhookDeliveries.webhookId, hook.id);
    const [rows, [counted]] = await Promise.all([
      ctx.db.select().from(webhookDeliveries).where(where)
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(input.limit).offset((input.page - 1) * input.limit),
      ctx.db.select({ total: count() }).from(webhookDeliveries).where(where),
    ]);
    const pagination = paginationOf(counted?.total ?? 0, input.page, input.limit);
    if (rows.length === 0) return { data: [], pagination };
    const attempts = await ctx.db.select().from(webhookAttempts)
      .where(inArray(webhookAttempts.deliveryId, rows.map((r) => r.id)))
      .orderBy(asc(webhookAttempts.attemptNumber), asc(webhookAttempts.startedAt));
    const byDelivery = new Map<string, AttemptView[]>();
    for (const a of attempts) {
      const list = byDelivery.get(a.deliveryId) ?? [];
      list.push(toAttemptView(a));
      byDelivery.set(a.deliveryId, list);
    }
    return { data: rows.map((r) => toDeliveryView(r, byDelivery.get(r.id) ?? [])), pagination };
  },
});

/**
 * Sends a past delivery again as its next attempt: the same delivery id and the same payload
 * bytes, due at once. If that attempt fails, the delivery carries on from where its retry schedule
 * stood (an exhausted one is exhausted again).
 */
export const redeliver = defineOperation({
  name: 'webhooks.redeliver',
  input: z.strictObject({ id: z.string().min(1), deliveryId: z.string().min(1) }),
  access: webhookAccess,
  write: true,
  async run(ctx, input): Promise<DeliveryView> {
    const hook = await findWebhook(ctx.db, ctx.project.id, input.id);
    if (!hook.active) throw inactive();
    const now = ctx.clock.now();
    const [row] = z.uuid().safeParse(input.deliveryId).success
      ? await ctx.db.update(webhookDeliveries)
        .set({ status: 'pending', nextAttemptAt: now, leaseUntil: null, leaseOwner: null, updatedAt: now })
        .where(and(eq(webhookDeliveries.id, input.deliveryId), eq(webhookDeliveries.webhookId, hook.id)))
        .returning()
      : [];
    if (!row) throw new CmsError('NOT_FOUND', `Delivery ${input.deliveryId} of webhook ${input.id} not found`);
    await notifyOutbox(ctx.db, ctx.project.id);
    const attempts = await ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, row.id))
      .orderBy(asc(webhookAttempts.attemptNumber));
    return toDeliveryView(row, attempts.map(toAttemptView));
  },
});

/**
 * One dispatcher pass over every due delivery of the database (`cms webhooks process`, for cron
 * or CI), with the engine's own dispatcher.
 */
export const processWebhooks = defineOperation({
  name: 'webhooks.process',
  input: z.strictObject({}),
  // The terminal and the server's jobs only: a pass sends every project's deliveries.
  access: { role: null },
  write: false,
  global: true,
  async run(ctx): Promise<WebhookPassSummary> {
    return ctx.services.webhooks.processDue();
  },
});
