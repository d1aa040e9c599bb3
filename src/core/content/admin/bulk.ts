import { z } from 'zod';
import { CmsError, isCmsError } from '../../errors.js';
import type { Ctx } from '../../context.js';
import { defineOperation, formatPath } from '../../operation.js';
import { deleteEntry, publishEntry, unpublishEntry } from '../entries.js';
import { collectionInput, editorAccess } from './shared.js';

export const bulkActions = ['delete', 'publish', 'unpublish'] as const;
export type BulkAction = (typeof bulkActions)[number];

/** The operations that carry out one item of a bulk action. */
export type BulkOperationName = 'pages.bulkDelete' | 'pages.bulkPublish' | 'pages.bulkUnpublish'
  | 'items.bulkDelete' | 'items.bulkPublish' | 'items.bulkUnpublish';


/**
 * One item of a bulk action. Bulk actions commit item by item (`runBulk` runs one of these per id,
 * each in its own transaction), and their events carry only `{ id }` (the contract).
 */
const bulkItemInput = z.strictObject({ id: z.string().min(1), collection: collectionInput, force: z.boolean().default(false) });
export type BulkItemInput = z.input<typeof bulkItemInput>;

/** Once the items are written (and the action pauses), the planner's statistics are refreshed. */
function wroteInBulk(ctx: Ctx): void {
  ctx.afterCommit(() => ctx.services.statistics.rowsWritten());
}

export const bulkDeletePages = defineOperation({
  name: 'pages.bulkDelete',
  input: bulkItemInput,
  access: editorAccess,
  write: true,
  run: (ctx, input) => { wroteInBulk(ctx); return deleteEntry(ctx, 'page', { id: input.id }, input.collection, input.force, { eventData: 'id' }); },
});

export const bulkPublishPages = defineOperation({
  name: 'pages.bulkPublish',
  input: bulkItemInput,
  access: editorAccess,
  write: true,
  run: (ctx, input) => { wroteInBulk(ctx); return publishEntry(ctx, 'page', { id: input.id }, input.collection, { eventData: 'id' }); },
});

export const bulkUnpublishPages = defineOperation({
  name: 'pages.bulkUnpublish',
  input: bulkItemInput,
  access: editorAccess,
  write: true,
  run: (ctx, input) => { wroteInBulk(ctx); return unpublishEntry(ctx, 'page', { id: input.id }, input.collection, { eventData: 'id' }); },
});

export const bulkDeleteItems = defineOperation({
  name: 'items.bulkDelete',
  input: bulkItemInput,
  access: editorAccess,
  write: true,
  run: (ctx, input) => { wroteInBulk(ctx); return deleteEntry(ctx, 'item', { id: input.id }, input.collection, input.force, { eventData: 'id' }); },
});

export const bulkPublishItems = defineOperation({
  name: 'items.bulkPublish',
  input: bulkItemInput,
  access: editorAccess,
  write: true,
  run: (ctx, input) => { wroteInBulk(ctx); return publishEntry(ctx, 'item', { id: input.id }, input.collection, { eventData: 'id' }); },
});

export const bulkUnpublishItems = defineOperation({
  name: 'items.bulkUnpublish',
  input: bulkItemInput,
  access: editorAccess,
  write: true,
  run: (ctx, input) => { wroteInBulk(ctx); return unpublishEntry(ctx, 'item', { id: input.id }, input.collection, { eventData: 'id' }); },
});

export const bulkInput = z.strictObject({
  ids: z.array(z.string().min(1)).min(1, 'name at least one id').max(500, 'at most 500 ids at a time'),
  force: z.boolean().optional(),
  collection: z.string().min(1).optional(),
});
export type BulkInput = z.input<typeof bulkInput>;

export interface BulkResult {
  id: string;
  ok: boolean;
  /** The item's error as a single write would answer it (its details too: the missing fields, the referrers). */
  error?: { code: string; message: string; details?: unknown };
}

/**
 * Runs a bulk action through the doors' `run`, so each item is its own operation: its own
 * transaction, access check and events. One item failing does not stop the others; a failure
 * that is about the caller (not signed in, role too low) stops the whole request.
 */
export async function runBulk<N extends BulkOperationName>(
  name: N,
  input: unknown,
  runOne: (name: N, input: BulkItemInput) => Promise<unknown>,
): Promise<{ data: BulkResult[] }> {
  const deletes = name.endsWith('Delete');
  const parsed = bulkInput.safeParse(input ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
    throw new CmsError('VALIDATION_FAILED', `Invalid input: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
  }
  const { ids, force, collection } = parsed.data;
  const data: BulkResult[] = [];
  for (const id of [...new Set(ids)]) {
    try {
      await runOne(name, { id, ...(collection ? { collection } : {}), ...(deletes && force ? { force } : {}) });
      data.push({ id, ok: true });
    } catch (e) {
      if (isCmsError(e) && (e.code === 'UNAUTHORIZED' || e.code === 'FORBIDDEN')) throw e;
      const error = isCmsError(e)
        ? { code: e.code, message: e.message, ...(e.details !== undefined ? { details: e.details } : {}) }
        : { code: 'INTERNAL', message: 'Internal error' };
      data.push({ id, ok: false, error });
    }
  }
  return { data };
}
