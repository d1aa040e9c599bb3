import { z } from 'zod';
import { CmsError, isCmsError } from '../../errors.js';
import { defineOperation, formatPath } from '../../operation.js';
import { deleteEntry, publishEntry, unpublishEntry } from '../entries.js';
import type { EntryKind } from '../store.js';
import { collectionInput, editorAccess, opPrefix } from './shared.js';

export const bulkActions = ['delete', 'publish', 'unpublish'] as const;
export type BulkAction = (typeof bulkActions)[number];

const opSuffix: Record<BulkAction, string> = { delete: 'bulkDelete', publish: 'bulkPublish', unpublish: 'bulkUnpublish' };

/** The operation that carries out one item of a bulk action (`pages.bulkPublish` …). */
export const bulkOperationName = (kind: EntryKind, action: BulkAction) => `${opPrefix(kind)}.${opSuffix[action]}`;

/**
 * One item of a bulk action. Bulk actions commit item by item (`runBulk` runs this once per id,
 * each in its own transaction), and their events carry only `{ id }` (the contract).
 */
export function bulkItemOperation(kind: EntryKind, action: BulkAction) {
  return defineOperation({
    name: bulkOperationName(kind, action),
    input: z.strictObject({ id: z.string().min(1), collection: collectionInput, force: z.boolean().default(false) }),
    access: editorAccess,
    write: true,
    async run(ctx, input): Promise<unknown> {
      const ref = { id: input.id };
      switch (action) {
        case 'delete': return deleteEntry(ctx, kind, ref, input.collection, input.force, { eventData: 'id' });
        case 'publish': return publishEntry(ctx, kind, ref, input.collection, { eventData: 'id' });
        case 'unpublish': return unpublishEntry(ctx, kind, ref, input.collection, { eventData: 'id' });
      }
    },
  });
}

export const bulkInput = z.strictObject({
  ids: z.array(z.string().min(1)).min(1, 'name at least one id').max(500, 'at most 500 ids at a time'),
  force: z.boolean().optional(),
  collection: z.string().min(1).optional(),
});
export type BulkInput = z.input<typeof bulkInput>;

export interface BulkResult {
  id: string;
  ok: boolean;
  error?: { code: string; message: string };
}

/**
 * Runs a bulk action through the doors' `run`, so each item is its own operation: its own
 * transaction, access check and events. One item failing does not stop the others; a failure
 * that is about the caller (not signed in, role too low) stops the whole request.
 */
export async function runBulk(
  run: (op: string, input: unknown) => Promise<unknown>,
  kind: EntryKind,
  action: BulkAction,
  input: unknown,
): Promise<{ data: BulkResult[] }> {
  const parsed = bulkInput.safeParse(input ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
    throw new CmsError('VALIDATION_FAILED', `Invalid input: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
  }
  const { ids, force, collection } = parsed.data;
  const data: BulkResult[] = [];
  for (const id of [...new Set(ids)]) {
    try {
      await run(bulkOperationName(kind, action), { id, ...(collection ? { collection } : {}), ...(action === 'delete' && force ? { force } : {}) });
      data.push({ id, ok: true });
    } catch (e) {
      if (isCmsError(e) && (e.code === 'UNAUTHORIZED' || e.code === 'FORBIDDEN')) throw e;
      const error = isCmsError(e) ? { code: e.code, message: e.message } : { code: 'INTERNAL', message: 'Internal error' };
      data.push({ id, ok: false, error });
    }
  }
  return { data };
}
