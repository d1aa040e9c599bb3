import { and, asc, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import { z } from 'zod';
import { collectionItems, pages } from '../../../db/schema/index.js';
import { isCmsError } from '../../errors.js';
import { defineOperation } from '../../operation.js';
import { publishEntry } from '../entries.js';
import { storeOf, type EntryKind } from '../store.js';

/** How many due entries one pass publishes; the rest wait for the next minute. */
const batchSize = 100;

export interface DueEntry { kind: EntryKind; id: string; slug: string }

/**
 * Publishes what is scheduled and due in the project (the scheduler runs it every minute);
 * emits *.published for each. An entry that cannot be published (required fields missing) is
 * unscheduled and reported, so it does not fail again every minute.
 */
export const publishDue = defineOperation({
  name: 'content.publishDue',
  input: z.strictObject({}),
  // The server's scheduler and the terminal run it; members schedule, they do not trigger.
  access: { role: null },
  write: true,
  async run(ctx) {
    // Several servers on one database run this at the same moment: each takes the due rows no
    // other pass holds (locked until this transaction ends, when they are published and no
    // longer due), so each entry is published exactly once.
    const now = ctx.clock.now();
    const duePages = await ctx.db.select({ id: pages.id, slug: pages.slug }).from(pages)
      .where(and(eq(pages.projectId, ctx.project.id), isNull(pages.deletedAt), isNotNull(pages.publishAt), lte(pages.publishAt, now)))
      .orderBy(asc(pages.publishAt)).limit(batchSize).for('update', { skipLocked: true });
    const dueItems = await ctx.db.select({ id: collectionItems.id, slug: collectionItems.slug }).from(collectionItems)
      .where(and(eq(collectionItems.projectId, ctx.project.id), isNull(collectionItems.deletedAt), isNotNull(collectionItems.publishAt), lte(collectionItems.publishAt, now)))
      .orderBy(asc(collectionItems.publishAt)).limit(batchSize).for('update', { skipLocked: true });
    const due: DueEntry[] = [
      ...duePages.map((r) => ({ kind: 'page' as const, ...r })),
      ...dueItems.map((r) => ({ kind: 'item' as const, ...r })),
    ];
    const published: DueEntry[] = [];
    const failed: Array<DueEntry & { error: { code: string; message: string } }> = [];
    for (const entry of due) {
      try {
        // A savepoint per entry: one that fails leaves the others' work in place.
        await ctx.db.transaction((sp) => publishEntry({ ...ctx, db: sp }, entry.kind, { id: entry.id }));
        published.push(entry);
      } catch (e) {
        if (!isCmsError(e)) throw e;
        await storeOf(entry.kind).update(ctx.db, entry.id, { publishAt: null });
        ctx.log.warn(`scheduled publish of ${entry.kind} ${entry.slug} failed and was unscheduled`, { id: entry.id, code: e.code, message: e.message });
        failed.push({ ...entry, error: { code: e.code, message: e.message } });
      }
    }
    return { published, failed };
  },
});
