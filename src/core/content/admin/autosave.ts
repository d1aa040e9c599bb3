import { z } from 'zod';
import { defineOperation } from '../../operation.js';
import { updateEntry } from '../entries.js';
import type { EntryKind } from '../store.js';
import { collectionInput, editorAccess, fieldsInput, opPrefix, refSchema } from './shared.js';

/** Saves the draft like an update (a new version, the same merge and checks) without an event. */
export function autosaveOperation(kind: EntryKind) {
  return defineOperation({
    name: `${opPrefix(kind)}.autosave`,
    input: z.strictObject({
      ref: refSchema,
      collection: collectionInput,
      name: z.string().trim().min(1).max(255).optional(),
      slug: z.string().min(1).max(255).optional(),
      fields: fieldsInput.optional(),
      ...(kind === 'page' ? { seo: fieldsInput.optional() } : {}),
      version: z.number().int().positive().optional(),
    }) as z.ZodType<{ ref: z.infer<typeof refSchema>; collection?: string; name?: string; slug?: string; fields?: Record<string, unknown>; seo?: Record<string, unknown>; version?: number }>,
    access: editorAccess,
    write: true,
    run: (ctx, input) => updateEntry(ctx, kind, {
      ref: input.ref, typeSlug: input.collection, name: input.name, slug: input.slug, fields: input.fields, seo: input.seo,
      expectedVersion: input.version, silent: true,
    }),
  });
}
