import { z } from 'zod';
import type { Ctx } from '../../context.js';
import { CmsError } from '../../errors.js';
import { defineOperation } from '../../operation.js';
import { slugSchema } from '../../slug.js';
import { createEntry, findEntry } from '../entries.js';
import { findFreeSlug } from '../free-slug.js';
import type { EntryKind, EntryStore, WriteShapeOf } from '../store.js';
import { collectionInput, editorAccess, refSchema } from './shared.js';

/** `about` → `about-copy`, then `about-copy-2`, … whichever is free first. */
function freeCopySlug(ctx: Ctx, store: EntryStore, typeId: string, slug: string): Promise<string> {
  return findFreeSlug(`${slug.slice(0, 240)}-copy`, (candidate) => store.slugTaken(ctx.db, ctx.project.id, typeId, candidate));
}

/** `<name> (copy)`, the name shortened (by characters, as names are counted) to keep it within 255. */
function copyName(name: string): string {
  const suffix = ' (copy)';
  const chars = [...name];
  return chars.length + suffix.length <= 255 ? `${name}${suffix}` : `${chars.slice(0, 255 - suffix.length).join('')}${suffix}`;
}

/** The same for pages and items: the source, and the new slug and name (derived when left out). */
const cloneInput = z.strictObject({
  ref: refSchema,
  collection: collectionInput,
  slug: slugSchema.optional(),
  // Its length is checked by the create, as every name's is (in characters, not UTF-16 units).
  name: z.string().trim().optional(),
});
type CloneInput = z.output<typeof cloneInput>;

/** A new draft with the source's draft content and SEO, in every locale; emits *.created with the clone. */
async function cloneEntry<K extends EntryKind>(ctx: Ctx, kind: K, input: CloneInput): Promise<WriteShapeOf<K>> {
  const { row, type, store } = await findEntry(ctx, kind, input.ref, input.collection);
  const name = input.name ?? copyName(row.name);
  const create = (slug: string) => createEntry(ctx, kind, {
    typeSlug: type.slug,
    name,
    slug,
    fields: row.draftContent,
    ...(kind === 'page' ? { seo: row.seo } : {}),
    copyLocales: { draftLocales: row.draftLocales, seoLocales: row.seoLocales },
    status: 'draft',
  });
  if (input.slug !== undefined) return create(input.slug);
  // A slug the server chose may be taken by a clone committed meanwhile (on PostgreSQL, clones run
  // at once): the insert then writes nothing, and the next free slug is chosen.
  for (let attempt = 1; ; attempt++) {
    try {
      return await create(await freeCopySlug(ctx, store, type.id, row.slug));
    } catch (e) {
      if (!(e instanceof CmsError && e.code === 'SLUG_EXISTS') || attempt >= maxCloneAttempts) throw e;
    }
  }
}

/** How many free slugs a clone tries while clones made at the same time take them first. */
const maxCloneAttempts = 20;

export const clonePage = defineOperation({
  name: 'pages.clone',
  input: cloneInput,
  access: editorAccess,
  write: true,
  run: (ctx, input) => cloneEntry(ctx, 'page', input),
});

export const cloneItem = defineOperation({
  name: 'items.clone',
  input: cloneInput,
  access: editorAccess,
  write: true,
  run: (ctx, input) => cloneEntry(ctx, 'item', input),
});
