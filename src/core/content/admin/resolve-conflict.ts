import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { Ctx } from '../../context.js';
import { CmsError } from '../../errors.js';
import { defineOperation } from '../../operation.js';
import { findEntry, updateEntry } from '../entries.js';
import { storeOf, type EntryKind, type WriteShapeOf } from '../store.js';
import { localizedFieldNames, splitLocalized } from '../../locales/model.js';
import { writeLocale } from '../locale-writes.js';
import { collectionInput, editorAccess, fieldsInput, localeInput, refSchema, type Ref } from './shared.js';

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
 * - merge: a three-way merge of the base version, the current draft and the caller's `fields`:
 *   a field sent with the value it had in the base (the caller did not change it) keeps the
 *   current draft's value, a field the caller changed takes the caller's value, and a field not
 *   sent stays as it is. The base is known when its snapshot is stored (versions are snapshotted
 *   on publish, unpublish and restore); without one, every field sent counts as changed.
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
    : input.strategy === 'merge' ? await changedSinceBase(ctx, kind, row.id, input.baseVersion, locale, input.fields ?? {})
      : undefined;
  return updateEntry(ctx, kind, { ref: { id: row.id }, fields, expectedVersion: row.version, locale });
}

/** The caller's fields less those it sent unchanged from the base version's snapshot (all of them when there is none). */
async function changedSinceBase(ctx: Ctx, kind: EntryKind, id: string, baseVersion: number, locale: string, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const snapshot = await storeOf(kind).snapshotAt(ctx.db, id, baseVersion);
  if (!snapshot) return fields;
  const base: Record<string, unknown> = locale === ctx.project.locales.defaultLocale
    ? snapshot.draftContent
    : { ...snapshot.draftContent, ...snapshot.draftLocales?.[locale] };
  return Object.fromEntries(Object.entries(fields).filter(([k, v]) => !(Object.hasOwn(base, k) && isDeepStrictEqual(base[k], v))));
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
