import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { aiUsage, apiKeys, users } from '../../db/schema/index.js';
import type { Ctx } from '../context.js';
import { defineOperation } from '../operation.js';

export const aiFeatures = ['seo', 'suggest', 'alt-text'] as const;
export type AiFeature = (typeof aiFeatures)[number];

export interface UsageRecord {
  feature: AiFeature;
  provider: string;
  model: string;
  inputTokens: number | null;
  outputTokens: number | null;
  durationMs: number;
  /** `ok`, or the error code the call ended with. */
  outcome: string;
}

/** Writes one call's usage (its own statement: an AI operation runs outside any transaction). */
export async function recordUsage(ctx: Ctx, record: UsageRecord): Promise<void> {
  const { actor } = ctx;
  await ctx.db.insert(aiUsage).values({
    projectId: ctx.project.id,
    actorKind: actor.kind,
    actorId: actor.kind === 'user' ? actor.userId : actor.kind === 'key' ? actor.keyId : null,
    createdAt: ctx.clock.now(),
    ...record,
  });
}

/** Totals of a group of calls. */
export interface UsageTotals {
  calls: number;
  failures: number;
  inputTokens: number;
  outputTokens: number;
}

export interface UsageReport {
  /** Per month (UTC, `YYYY-MM`), newest first. */
  months: Array<{ month: string } & UsageTotals>;
  /** Per month and caller: a member (with their email), a key (with its name), or the terminal. */
  callers: Array<{ month: string; kind: string; id: string | null; name: string | null } & UsageTotals>;
}

const monthPattern = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * `cms ai usage`, `GET /api/v1/admin/ai/usage`: calls and tokens per month, and per member or key,
 * for the last `months` months (12 by default) or one `month`.
 */
export const aiUsageReport = defineOperation({
  name: 'ai.usage',
  input: z.strictObject({
    month: z.string().regex(monthPattern, 'must be a month like 2026-01').optional(),
    months: z.coerce.number().int().min(1).max(120).default(12),
  }),
  access: { role: 'admin' },
  write: false,
  async run(ctx, input): Promise<UsageReport> {
    const month = sql<string>`to_char(${aiUsage.createdAt} at time zone 'UTC', 'YYYY-MM')`;
    const now = ctx.clock.now();
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (input.months - 1), 1));
    const where = and(eq(aiUsage.projectId, ctx.project.id), input.month ? sql`${month} = ${input.month}` : gte(aiUsage.createdAt, since));
    const totals = {
      calls: sql<number>`count(*)`.mapWith(Number),
      failures: sql<number>`count(*) filter (where ${aiUsage.outcome} <> 'ok')`.mapWith(Number),
      inputTokens: sql<number>`coalesce(sum(${aiUsage.inputTokens}), 0)`.mapWith(Number),
      outputTokens: sql<number>`coalesce(sum(${aiUsage.outputTokens}), 0)`.mapWith(Number),
    };
    const months = await ctx.db.select({ month, ...totals }).from(aiUsage).where(where).groupBy(month).orderBy(desc(month));
    const byCaller = await ctx.db.select({ month, kind: aiUsage.actorKind, id: aiUsage.actorId, ...totals })
      .from(aiUsage).where(where).groupBy(month, aiUsage.actorKind, aiUsage.actorId)
      .orderBy(desc(month), aiUsage.actorKind, aiUsage.actorId);
    const ids = (kind: string) => [...new Set(byCaller.filter((r) => r.kind === kind && r.id).map((r) => r.id!))];
    const userIds = ids('user');
    const keyIds = ids('key');
    const names = new Map<string, string>();
    if (userIds.length) {
      for (const u of await ctx.db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, userIds))) names.set(`user:${u.id}`, u.email);
    }
    if (keyIds.length) {
      for (const k of await ctx.db.select({ id: apiKeys.id, name: apiKeys.name }).from(apiKeys).where(inArray(apiKeys.id, keyIds))) names.set(`key:${k.id}`, k.name);
    }
    return {
      months,
      callers: byCaller.map((r) => ({ ...r, name: r.id ? names.get(`${r.kind}:${r.id}`) ?? null : null })),
    };
  },
});
