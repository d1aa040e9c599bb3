import { z } from 'zod';
import { actorLabel } from '../../actor.js';
import type { Ctx } from '../../context.js';
import { CmsError } from '../../errors.js';
import { defineOperation } from '../../operation.js';
import { findEntry, toWriteShape } from '../entries.js';
import type { EntryKind, WriteShapeOf } from '../store.js';
import { collectionInput, editorAccess, refSchema, type Ref } from './shared.js';

const publishAtInput = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time, like 2026-03-01T09:00:00Z' });

/** Sets `publishAt`; the scheduler publishes it when due. Emits nothing (the contract). */
async function scheduleEntry<K extends EntryKind>(ctx: Ctx, kind: K, input: { ref: Ref; collection?: string | undefined; publishAt: string }): Promise<WriteShapeOf<K>> {
  const { row, type, store } = await findEntry(ctx, kind, input.ref, input.collection, true);
  const publishAt = new Date(input.publishAt);
  if (publishAt.getTime() <= ctx.clock.now().getTime()) {
    throw new CmsError('VALIDATION_FAILED', 'publishAt must be in the future; to publish now, use publish', [
      { path: 'publishAt', message: 'must be in the future' },
    ]);
  }
  const updated = await store.update(ctx.db, row.id, { publishAt, updatedBy: actorLabel(ctx.actor) });
  return toWriteShape(kind, updated!, type.slug, ctx.project.locales);
}

async function unscheduleEntry<K extends EntryKind>(ctx: Ctx, kind: K, input: { ref: Ref; collection?: string | undefined }): Promise<WriteShapeOf<K>> {
  const { row, type, store } = await findEntry(ctx, kind, input.ref, input.collection, true);
  // Unscheduling what is not scheduled changes nothing and is not an error.
  const updated = row.publishAt ? await store.update(ctx.db, row.id, { publishAt: null, updatedBy: actorLabel(ctx.actor) }) : row;
  return toWriteShape(kind, updated!, type.slug, ctx.project.locales);
}

export const schedulePage = defineOperation({
  name: 'pages.schedule',
  input: z.strictObject({ ref: refSchema, collection: collectionInput, publishAt: publishAtInput }),
  access: editorAccess,
  write: true,
  run: (ctx, input) => scheduleEntry(ctx, 'page', input),
});

export const scheduleItem = defineOperation({
  name: 'items.schedule',
  input: z.strictObject({ ref: refSchema, collection: collectionInput, publishAt: publishAtInput }),
  access: editorAccess,
  write: true,
  run: (ctx, input) => scheduleEntry(ctx, 'item', input),
});

export const unschedulePage = defineOperation({
  name: 'pages.unschedule',
  input: z.strictObject({ ref: refSchema, collection: collectionInput }),
  access: editorAccess,
  write: true,
  run: (ctx, input) => unscheduleEntry(ctx, 'page', input),
});

export const unscheduleItem = defineOperation({
  name: 'items.unschedule',
  input: z.strictObject({ ref: refSchema, collection: collectionInput }),
  access: editorAccess,
  write: true,
  run: (ctx, input) => unscheduleEntry(ctx, 'item', input),
});
