import { z } from 'zod';
import { actorLabel } from '../../actor.js';
import type { Ctx } from '../../context.js';
import { CmsError } from '../../errors.js';
import { defineOperation } from '../../operation.js';
import { findEntry, toWriteShape } from '../entries.js';
import type { EntryKind, WriteShapeOf } from '../store.js';
import { collectionInput, editorAccess, refSchema, type Ref } from './shared.js';

const atInput = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time, like 2026-03-01T09:00:00Z' });

const scheduleInput = z.strictObject({ ref: refSchema, collection: collectionInput, publishAt: atInput.optional(), unpublishAt: atInput.optional() });
type ScheduleInput = { ref: Ref; collection?: string | undefined; publishAt?: string | undefined; unpublishAt?: string | undefined };

/** Which schedule DELETE clears: both (the default), or one of them. */
const unscheduleInput = z.strictObject({ ref: refSchema, collection: collectionInput, which: z.enum(['publish', 'unpublish']).optional() });
type UnscheduleInput = { ref: Ref; collection?: string | undefined; which?: 'publish' | 'unpublish' | undefined };

const invalid = (path: string, message: string, summary: string) => new CmsError('VALIDATION_FAILED', summary, [{ path, message }]);

/**
 * Sets `publishAt` and/or `unpublishAt` (at least one; a time left out keeps its current value);
 * the scheduler publishes or unpublishes the entry when due. Emits nothing (the contract).
 */
async function scheduleEntry<K extends EntryKind>(ctx: Ctx, kind: K, input: ScheduleInput): Promise<WriteShapeOf<K>> {
  if (input.publishAt === undefined && input.unpublishAt === undefined) {
    throw invalid('publishAt', 'give publishAt, unpublishAt or both', 'Give publishAt, unpublishAt or both');
  }
  const { row, type, store } = await findEntry(ctx, kind, input.ref, input.collection, true);
  const now = ctx.clock.now().getTime();
  const publishAt = input.publishAt === undefined ? undefined : new Date(input.publishAt);
  const unpublishAt = input.unpublishAt === undefined ? undefined : new Date(input.unpublishAt);
  if (publishAt && publishAt.getTime() <= now) {
    throw invalid('publishAt', 'must be in the future', 'publishAt must be in the future; to publish now, use publish');
  }
  if (unpublishAt && unpublishAt.getTime() <= now) {
    throw invalid('unpublishAt', 'must be in the future', 'unpublishAt must be in the future; to unpublish now, use unpublish');
  }
  // The unpublish time must follow the publish time that will hold (given now, or already set).
  const effectivePublishAt = publishAt ?? row.publishAt;
  const effectiveUnpublishAt = unpublishAt ?? row.unpublishAt;
  if (effectivePublishAt && effectiveUnpublishAt && effectiveUnpublishAt.getTime() <= effectivePublishAt.getTime()) {
    throw invalid('unpublishAt', 'must be after publishAt', 'unpublishAt must be after publishAt');
  }
  const updated = await store.update(ctx.db, row.id, {
    ...(publishAt ? { publishAt } : {}),
    ...(unpublishAt ? { unpublishAt } : {}),
    updatedBy: actorLabel(ctx.actor),
  });
  return toWriteShape(kind, updated!, type.slug, ctx.project.locales);
}

async function unscheduleEntry<K extends EntryKind>(ctx: Ctx, kind: K, input: UnscheduleInput): Promise<WriteShapeOf<K>> {
  const { row, type, store } = await findEntry(ctx, kind, input.ref, input.collection, true);
  const clearPublish = input.which !== 'unpublish' && row.publishAt !== null;
  const clearUnpublish = input.which !== 'publish' && row.unpublishAt !== null;
  // Unscheduling what is not scheduled changes nothing and is not an error.
  const updated = clearPublish || clearUnpublish
    ? await store.update(ctx.db, row.id, {
      ...(clearPublish ? { publishAt: null } : {}),
      ...(clearUnpublish ? { unpublishAt: null } : {}),
      updatedBy: actorLabel(ctx.actor),
    })
    : row;
  return toWriteShape(kind, updated!, type.slug, ctx.project.locales);
}

export const schedulePage = defineOperation({
  name: 'pages.schedule',
  input: scheduleInput,
  access: editorAccess,
  write: true,
  run: (ctx, input) => scheduleEntry(ctx, 'page', input),
});

export const scheduleItem = defineOperation({
  name: 'items.schedule',
  input: scheduleInput,
  access: editorAccess,
  write: true,
  run: (ctx, input) => scheduleEntry(ctx, 'item', input),
});

export const unschedulePage = defineOperation({
  name: 'pages.unschedule',
  input: unscheduleInput,
  access: editorAccess,
  write: true,
  run: (ctx, input) => unscheduleEntry(ctx, 'page', input),
});

export const unscheduleItem = defineOperation({
  name: 'items.unschedule',
  input: unscheduleInput,
  access: editorAccess,
  write: true,
  run: (ctx, input) => unscheduleEntry(ctx, 'item', input),
});
