import { z } from 'zod';
import type { Ctx } from '../../context.js';
import { CmsError } from '../../errors.js';
import { defineOperation } from '../../operation.js';
import { findEntry, updateEntry } from '../entries.js';
import type { EntryKind, WriteShapeOf } from '../store.js';
import { localizedFieldNames, splitLocalized } from '../../locales/model.js';
import { writeLocale } from '../locale-writes.js';
import { collectionInput, editorAccess, fieldsInput, localeInput, refSchema, replacementPatch, type Ref } from './shared.js';

const resolveConflictInput = z.strictObject({
  ref: refSchema,
  collection: collectionInput,
  baseVersion: z.number().int().positive(),
  strategy: z.enum(['mine', 'theirs', 'merge']),
  fields: fieldsInput.optional(),
  locale: localeInput,
}).superRefine((v, c) => {
  if (v.strategy !== 'theirs' && v.fields === undefined) {
    c.addIssue({ code: 'custom', path: ['fields'], message: `strategy "${v.strategy}" needs fields` });
  }
});

interface ResolveConflictInput {
  ref: Ref;
  collection?: string | undefined;
  baseVersion: number;
  strategy: 'mine' | 'theirs' | 'merge';
  fields?: Record<string, unknown> | undefined;
  locale?: string | undefined;
}

/**
 * Settles an edit made from `baseVersion` that met a newer version:
 * - mine: the caller's `fields` win, merged key by key over the current draft (like an update);
 * - theirs: the current draft stays as it is;
 * - merge: `fields` is the merged document the caller composed and replaces the draft.
 * Whatever the strategy, the resolution is a new version announced with *.updated. With a
 * `locale`, `fields` are that locale's (its own values of localized fields, and the shared
 * ones); the other locales' values stay as they are.
 */
async function resolveConflict<K extends EntryKind>(ctx: Ctx, kind: K, input: ResolveConflictInput): Promise<WriteShapeOf<K>> {
  const { row, type } = await findEntry(ctx, kind, input.ref, input.collection, true);
  const pl = ctx.project.locales;
  const locale = writeLocale(pl, input.locale);
  // The draft as the locale has it: shared fields, and the locale's own localized values (not fallbacks).
  const current = locale === pl.defaultLocale ? row.draftContent
    : { ...splitLocalized(row.draftContent, localizedFieldNames(type.fields)).shared, ...row.draftLocales[locale] };
  if (input.baseVersion > row.version) {
    throw new CmsError('VALIDATION_FAILED', `baseVersion ${input.baseVersion} is ahead of the current version ${row.version}`, [
      { path: 'baseVersion', message: `must be at most the current version ${row.version}` },
    ]);
  }
  const fields = input.strategy === 'mine' ? input.fields
    : input.strategy === 'merge' ? replacementPatch(current, input.fields ?? {})
      : undefined;
  return updateEntry(ctx, kind, { ref: { id: row.id }, fields, expectedVersion: row.version, locale });
}

export const resolvePageConflict = defineOperation({
  name: 'pages.resolveConflict',
  input: resolveConflictInput,
  access: editorAccess,
  write: true,
  run: (ctx, input) => resolveConflict(ctx, 'page', input),
});

export const resolveItemConflict = defineOperation({
  name: 'items.resolveConflict',
  input: resolveConflictInput,
  access: editorAccess,
  write: true,
  run: (ctx, input) => resolveConflict(ctx, 'item', input),
});
