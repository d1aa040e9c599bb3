import { z } from 'zod';
import { actorLabel } from '../../actor.js';
import { CmsError } from '../../errors.js';
import { defineOperation } from '../../operation.js';
import { findEntry, toWriteShape } from '../entries.js';
import type { EntryKind } from '../store.js';
import { collectionInput, editorAccess, opPrefix, refSchema } from './shared.js';

/** Sets `publishAt`; the scheduler publishes it when due. Emits nothing (the contract). */
export function scheduleOperation(kind: EntryKind) {
  return defineOperation({
    name: `${opPrefix(kind)}.schedule`,
    input: z.strictObject({
      ref: refSchema,
      collection: collectionInput,
      publishAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time, like 2026-03-01T09:00:00Z' }),
    }),
    access: editorAccess,
    write: true,
    async run(ctx, input) {
      const { row, type, store } = await findEntry(ctx, kind, input.ref, input.collection, true);
      const publishAt = new Date(input.publishAt);
      if (publishAt.getTime() <= ctx.clock.now().getTime()) {
        throw new CmsError('VALIDATION_FAILED', 'publishAt must be in the future; to publish now, use publish', [
          { path: 'publishAt', message: 'must be in the future' },
        ]);
      }
      const updated = await store.update(ctx.db, row.id, { publishAt, updatedBy: actorLabel(ctx.actor) });
      return toWriteShape(kind, updated!, type.slug);
    },
  });
}

export function unscheduleOperation(kind: EntryKind) {
  return defineOperation({
    name: `${opPrefix(kind)}.unschedule`,
    input: z.strictObject({ ref: refSchema, collection: collectionInput }),
    access: editorAccess,
    write: true,
    async run(ctx, input) {
      const { row, type, store } = await findEntry(ctx, kind, input.ref, input.collection, true);
      // Unscheduling what is not scheduled changes nothing and is not an error.
      const updated = row.publishAt ? await store.update(ctx.db, row.id, { publishAt: null, updatedBy: actorLabel(ctx.actor) }) : row;
      return toWriteShape(kind, updated!, type.slug);
    },
  });
}
