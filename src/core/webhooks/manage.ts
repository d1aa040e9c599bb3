import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { webhooks } from '../../db/schema/index.js';
import type { Access } from '../operation.js';
import { CmsError } from '../errors.js';
import { defineOperation } from '../operation.js';
import {
  generateSecret, isCredentialHeader, looksMasked, maskHeaderValue, previousSecretLifetimeMs, toWebhookView, webhookEvents, webhookHeaders, webhookUrl, type WebhookView,
} from './schemas.js';

/** Webhooks are developer work (the developer role or higher); API keys never manage them. */
export const webhookAccess: Access = { role: 'developer' };

const isUuid = (value: string) => z.uuid().safeParse(value).success;

/** The project's webhook, or NOT_FOUND (also for ids that are not UUIDs, or of another project). */
export async function findWebhook(db: Db, projectId: string, id: string): Promise<typeof webhooks.$inferSelect> {
  const [row] = isUuid(id)
    ? await db.select().from(webhooks).where(and(eq(webhooks.id, id), eq(webhooks.projectId, projectId)))
    : [];
  if (!row) throw new CmsError('NOT_FOUND', `Webhook ${id} not found`);
  return row;
}

const maskedValueError = (name: string) => new CmsError('VALIDATION_FAILED', `Header ${name} holds a masked value; send the real value`, [
  { path: `headers.${name}`, message: 'is a masked value (like "…abcd"), and this webhook has no such header to keep; send the real value' },
]);

/**
 * The custom headers to store from those an update sends: a credential header's value sent back
 * exactly as list and get show it masked keeps the stored value of that header (so an edit form that round-trips
 * the masks never overwrites a token with its mask). Answers the headers and the names whose
 * values the caller sent in clear.
 */
function mergeHeaders(stored: Record<string, string>, sent: Record<string, string>): { headers: Record<string, string>; sentInClear: Set<string> } {
  const storedByName = new Map(Object.entries(stored).map(([name, value]) => [name.toLowerCase(), value]));
  const headers: Record<string, string> = {};
  const sentInClear = new Set<string>();
  for (const [name, value] of Object.entries(sent)) {
    const current = storedByName.get(name.toLowerCase());
    const credential = isCredentialHeader(name);
    if (credential && current !== undefined && value === maskHeaderValue(current)) {
      headers[name] = current;
    } else if (credential && looksMasked(value)) {
      throw maskedValueError(name);
    } else {
      headers[name] = value;
      sentInClear.add(name);
    }
  }
  return { headers, sentInClear };
}

export const createWebhook = defineOperation({
  name: 'webhooks.create',
  input: z.strictObject({
    url: webhookUrl,
    events: webhookEvents,
    headers: webhookHeaders.optional(),
    active: z.boolean().optional(),
  }),
  access: webhookAccess,
  write: true,
  async run(ctx, input): Promise<WebhookView> {
    for (const [name, value] of Object.entries(input.headers ?? {})) if (isCredentialHeader(name) && looksMasked(value)) throw maskedValueError(name);
    const now = ctx.clock.now();
    const [row] = await ctx.db.insert(webhooks).values({
      projectId: ctx.project.id,
      url: input.url,
      events: input.events,
      headers: input.headers ?? {},
      active: input.active ?? true,
      secret: generateSecret(),
      createdAt: now,
      updatedAt: now,
    }).returning();
    // The whole secret is shown here and on regeneration only; the headers, as just sent.
    return toWebhookView(row!, now, { revealSecret: true, revealHeaders: new Set(Object.keys(row!.headers)) });
  },
});

export const listWebhooks = defineOperation({
  name: 'webhooks.list',
  input: z.strictObject({}),
  access: webhookAccess,
  write: false,
  async run(ctx): Promise<WebhookView[]> {
    const rows = await ctx.db.select().from(webhooks)
      .where(eq(webhooks.projectId, ctx.project.id))
      .orderBy(desc(webhooks.createdAt), desc(webhooks.id));
    const now = ctx.clock.now();
    return rows.map((r) => toWebhookView(r, now));
  },
});

export const getWebhook = defineOperation({
  name: 'webhooks.get',
  input: z.strictObject({ id: z.string().min(1) }),
  access: webhookAccess,
  write: false,
  async run(ctx, input): Promise<WebhookView> {
    return toWebhookView(await findWebhook(ctx.db, ctx.project.id, input.id), ctx.clock.now());
  },
});

export const updateWebhook = defineOperation({
  name: 'webhooks.update',
  input: z.strictObject({
    id: z.string().min(1),
    url: webhookUrl.optional(),
    events: webhookEvents.optional(),
    /** Replaces all custom headers; `{}` or null removes them; a masked value keeps the stored one. */
    headers: webhookHeaders.nullable().optional(),
    active: z.boolean().optional(),
  }),
  access: webhookAccess,
  write: true,
  async run(ctx, input): Promise<WebhookView> {
    const current = await findWebhook(ctx.db, ctx.project.id, input.id);
    const merged = input.headers ? mergeHeaders(current.headers, input.headers) : null;
    const now = ctx.clock.now();
    const [row] = await ctx.db.update(webhooks).set({
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.events !== undefined ? { events: input.events } : {}),
      ...(input.headers !== undefined ? { headers: merged?.headers ?? {} } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
      updatedAt: now,
    }).where(and(eq(webhooks.id, input.id), eq(webhooks.projectId, ctx.project.id))).returning();
    return toWebhookView(row!, now, { revealHeaders: merged?.sentInClear ?? new Set() });
  },
});

export const deleteWebhook = defineOperation({
  name: 'webhooks.delete',
  input: z.strictObject({ id: z.string().min(1) }),
  access: webhookAccess,
  write: true,
  async run(ctx, input): Promise<{ id: string; deleted: true }> {
    await findWebhook(ctx.db, ctx.project.id, input.id);
    // Its deliveries and their attempts go with it (foreign keys cascade).
    await ctx.db.delete(webhooks).where(and(eq(webhooks.id, input.id), eq(webhooks.projectId, ctx.project.id)));
    return { id: input.id, deleted: true };
  },
});

export const regenerateWebhookSecret = defineOperation({
  name: 'webhooks.regenerateSecret',
  input: z.strictObject({ id: z.string().min(1) }),
  access: webhookAccess,
  write: true,
  async run(ctx, input): Promise<WebhookView> {
    const current = await findWebhook(ctx.db, ctx.project.id, input.id);
    const now = ctx.clock.now();
    // The old secret keeps signing (a second webhook-signature entry) for 24 hours, so receivers
    // can switch over without refusing deliveries in between.
    const [row] = await ctx.db.update(webhooks).set({
      secret: generateSecret(),
      previousSecret: current.secret,
      previousSecretExpiresAt: new Date(now.getTime() + previousSecretLifetimeMs),
      updatedAt: now,
    }).where(eq(webhooks.id, current.id)).returning();
    return toWebhookView(row!, now, { revealSecret: true });
  },
});
