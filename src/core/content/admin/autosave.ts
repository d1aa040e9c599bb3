import { z } from 'zod';
import type { Ctx } from '../../context.js';
import { defineOperation } from '../../operation.js';
import { updateEntry } from '../entries.js';
import type { EntryKind, WriteShapeOf } from '../store.js';
import { collectionInput, editorAccess, fieldsInput, localeInput, refSchema, type Ref } from './shared.js';

interface AutosaveInput {
  ref: Ref;
  collection?: string | undefined;
  name?: string | undefined;
  slug?: string | undefined;
  fields?: Record<string, unknown> | undefined;
  seo?: Record<string, unknown> | undefined;
  version?: number | undefined;
  locale?: string | undefined;
}

/** Saves the draft like an update (a new version, the same merge and checks) without an event. */
const autosave = <K extends EntryKind>(ctx: Ctx, kind: K, input: AutosaveInput): Promise<WriteShapeOf<K>> => updateEntry(ctx, kind, {
  ref: input.ref, typeSlug: input.collection, name: input.name, slug: input.slug, fields: input.fields, seo: input.seo,
  expectedVersion: input.version, locale: input.locale, silent: true,
});

export const autosavePage = defineOperation({
  name: 'pages.autosave',
  input: z.strictObject({
    ref: refSchema,
    collection: collectionInput,
    name: z.string().trim().min(1).max(255).optional(),
    slug: z.string().min(1).max(255).optional(),
    fields: fieldsInput.optional(),
    seo: fieldsInput.optional(),
    version: z.number().int().positive().optional(),
    locale: localeInput,
  }),
  access: editorAccess,
  write: true,
  run: (ctx, input) => autosave(ctx, 'page', input),
});

export const autosaveItem = defineOperation({
  name: 'items.autosave',
  input: z.strictObject({
    ref: refSchema,
    collection: collectionInput,
    name: z.string().trim().min(1).max(255).optional(),
    slug: z.string().min(1).max(255).optional(),
    fields: fieldsInput.optional(),
    version: z.number().int().positive().optional(),
    locale: localeInput,
  }),
  access: editorAccess,
  write: true,
  run: (ctx, input) => autosave(ctx, 'item', input),
});
