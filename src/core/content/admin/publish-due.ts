import { and, asc, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import { z } from 'zod';
import { collectionItems, pages } from '../../../db/schema/index.js';
import { isCmsError } from '../../errors.js';
import { defineOperation } from '../../operation.js';
import { publishEntry, unpublishEntry } from '../entries.js';
import { storeOf, type EntryKind } from '../store.js';

/** How many due entries one pass publishes; the rest wait for the next minute. */
const batchSize = 100;

export interface DueEntry { kind: EntryKind; id: string; slug: string }

/**
 * Publishes what is scheduled and due in the project (the scheduler runs it every minute);
 * emits *.published for each. Then unpublishes the published entries whose unpublishAt is due
 * (emits *.unpublished, as a manual unpublish does) and clears their unpublishAt; a due
 * unpublishAt of an entry that is not published is just cleared. An entry that cannot be published (required fields missing) is
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
    // Unpublishing comes second, so an entry whose both times passed (a server that was down)
    // ends unpublished. Rows this transaction already locked above are not skipped by it.
    const duePagesOff = await ctx.db.select({ id: pages.id, slug: pages.slug, status: pages.status }).from(pages)
      .where(and(eq(pages.projectId, ctx.project.id), isNull(pages.deletedAt), isNotNull(pages.unpublishAt), lte(pages.unpublishAt, now)))
      .orderBy(asc(pages.unpublishAt)).limit(batchSize).for('update', { skipLocked: true });
    const dueItemsOff = await ctx.db.select({ id: collectionItems.id, slug: collectionItems.slug, status: collectionItems.status }).from(collectionItems)
      .where(and(eq(collectionItems.projectId, ctx.project.id), isNull(collectionItems.deletedAt), isNotNull(collectionItems.unpublishAt), lte(collectionItems.unpublishAt, now)))
      .orderBy(asc(collectionItems.unpublishAt)).limit(batchSize).for('update', { skipLocked: true });
    const unpublished: DueEntry[] = [];
    for (const { status, ...entry } of [
      ...duePagesOff.map((r) => ({ kind: 'page' as const, ...r })),
      ...dueItemsOff.map((r) => ({ kind: 'item' as const, ...r })),
    ]) {
      // Published now (read after the publishing above, so this pass's own count): unpublish, which clears unpublishAt.
      if (status === 'published') {
        await unpublishEntry(ctx, entry.kind, { id: entry.id });
        unpublished.push(entry);
      } else {
        await storeOf(entry.kind).update(ctx.db, entry.id, { unpublishAt: null });
      }
    }
    return { published, failed, unpublished };
  },
});
