import { z } from 'zod';
import { defineOperation, type Access } from '../operation.js';
import { createEntry, deleteEntry, findEntry, publishEntry, toWriteShape, unpublishEntry, updateEntry } from './entries.js';
import { listEntriesAdmin } from './delivery.js';

/**
 * Pages and collection items get the same seven verbs, each written out here with its name, input
 * and access; the work itself is shared (entries.ts), told apart by the entry kind. The inputs
 * differ in the type's key (`pageTypeSlug`, `collectionTypeSlug`) and in what only one kind has
 * (SEO for pages, a sort order for items).
 */
const writeAccess: Access = { role: 'editor', key: 'content:write' };
const draftReadAccess: Access = { role: 'viewer', key: 'content:write' };

const slugString = z.string().min(1).max(255);
export const refSchema = z.union([z.strictObject({ id: z.string().min(1) }), z.strictObject({ slug: slugString })]);
const fieldsSchema = z.record(z.string(), z.unknown());
const seoInput = z.record(z.string(), z.unknown());
/**
 * A new name or slug: a string here; their rules (1 to 255 characters, the slug pattern) are
 * checked by the write with the content, so that one answer lists every problem of the body.
 */
const name = z.string().trim();
const newSlug = z.string();
const version = z.number().int().positive();
const forceFlag = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true').default(false);
const status = z.enum(['draft', 'published']);
/** The column is a 32-bit integer. */
const sortOrder = z.number().int().min(-2_147_483_648).max(2_147_483_647);
/** The locale a write is in (the project's default when absent); checked against the project's locales by the write. */
const locale = z.string().optional();
/** Reads and writes by id or slug may name the entry's type: a page type, or a collection type. */
const pageTypeRef = z.string().optional();
const itemTypeRef = z.string().min(1).optional();

export const createPage = defineOperation({
  name: 'pages.create',
  input: z.strictObject({
    pageTypeSlug: z.string().min(1),
    name,
    slug: newSlug,
    fields: fieldsSchema.optional(),
    seo: seoInput.optional(),
    status: status.optional(),
    locale,
  }),
  access: writeAccess,
  write: true,
  transactional: true,
  run: (ctx, input) => createEntry(ctx, 'page', {
    typeSlug: input.pageTypeSlug, name: input.name, slug: input.slug, fields: input.fields, seo: input.seo, status: input.status,
    locale: input.locale,
  }),
});

export const createItem = defineOperation({
  name: 'items.create',
  input: z.strictObject({
    collectionTypeSlug: z.string().min(1),
    name,
    slug: newSlug,
    fields: fieldsSchema.optional(),
    sortOrder: sortOrder.optional(),
    status: status.optional(),
    locale,
  }),
  access: writeAccess,
  write: true,
  transactional: true,
  run: (ctx, input) => createEntry(ctx, 'item', {
    typeSlug: input.collectionTypeSlug, name: input.name, slug: input.slug, fields: input.fields, status: input.status,
    sortOrder: input.sortOrder, locale: input.locale,
  }),
});

export const updatePage = defineOperation({
  name: 'pages.update',
  input: z.strictObject({
    ref: refSchema,
    collection: pageTypeRef,
    name: name.optional(),
    slug: newSlug.optional(),
    fields: fieldsSchema.optional(),
    seo: seoInput.optional(),
    version: version.optional(),
    locale,
  }),
  access: writeAccess,
  write: true,
  transactional: true,
  run: (ctx, input) => updateEntry(ctx, 'page', {
    ref: input.ref, typeSlug: input.collection, name: input.name, slug: input.slug, fields: input.fields,
    seo: input.seo, expectedVersion: input.version, locale: input.locale,
  }),
});

export const updateItem = defineOperation({
  name: 'items.update',
  input: z.strictObject({
    ref: refSchema,
    collection: itemTypeRef,
    name: name.optional(),
    slug: newSlug.optional(),
    fields: fieldsSchema.optional(),
    sortOrder: sortOrder.optional(),
    version: version.optional(),
    locale,
  }),
  access: writeAccess,
  write: true,
  transactional: true,
  run: (ctx, input) => updateEntry(ctx, 'item', {
    ref: input.ref, typeSlug: input.collection, name: input.name, slug: input.slug, fields: input.fields,
    sortOrder: input.sortOrder, expectedVersion: input.version, locale: input.locale,
  }),
});

export const publishPage = defineOperation({
  name: 'pages.publish',
  input: z.strictObject({ ref: refSchema, collection: pageTypeRef }),
  access: writeAccess,
  write: true,
  transactional: true,
  run: (ctx, input) => publishEntry(ctx, 'page', input.ref, input.collection),
});

export const publishItem = defineOperation({
  name: 'items.publish',
  input: z.strictObject({ ref: refSchema, collection: itemTypeRef }),
  access: writeAccess,
  write: true,
  transactional: true,
  run: (ctx, input) => publishEntry(ctx, 'item', input.ref, input.collection),
});

export const unpublishPage = defineOperation({
  name: 'pages.unpublish',
  input: z.strictObject({ ref: refSchema, collection: pageTypeRef }),
  access: writeAccess,
  write: true,
  transactional: true,
  run: (ctx, input) => unpublishEntry(ctx, 'page', input.ref, input.collection),
});

export const unpublishItem = defineOperation({
  name: 'items.unpublish',
  input: z.strictObject({ ref: refSchema, collection: itemTypeRef }),
  access: writeAccess,
  write: true,
  transactional: true,
  run: (ctx, input) => unpublishEntry(ctx, 'item', input.ref, input.collection),
});

export const deletePage = defineOperation({
  name: 'pages.delete',
  input: z.strictObject({ ref: refSchema, collection: pageTypeRef, force: forceFlag }),
  access: writeAccess,
  write: true,
  transactional: true,
  run: (ctx, input) => deleteEntry(ctx, 'page', input.ref, input.collection, input.force),
});

export const deleteItem = defineOperation({
  name: 'items.delete',
  input: z.strictObject({ ref: refSchema, collection: itemTypeRef, force: forceFlag }),
  access: writeAccess,
  write: true,
  transactional: true,
  run: (ctx, input) => deleteEntry(ctx, 'item', input.ref, input.collection, input.force),
});

export const getPage = defineOperation({
  name: 'pages.get',
  input: z.strictObject({ ref: refSchema, collection: pageTypeRef }),
  access: draftReadAccess,
  write: false,
  async run(ctx, input) {
    const { row, type } = await findEntry(ctx, 'page', input.ref, input.collection);
    return toWriteShape('page', row, type.slug, ctx.project.locales);
  },
});

export const getItem = defineOperation({
  name: 'items.get',
  input: z.strictObject({ ref: refSchema, collection: itemTypeRef }),
  access: draftReadAccess,
  write: false,
  async run(ctx, input) {
    const { row, type } = await findEntry(ctx, 'item', input.ref, input.collection);
    return toWriteShape('item', row, type.slug, ctx.project.locales);
  },
});

export const listPages = defineOperation({
  name: 'pages.list',
  input: z.strictObject({ collection: pageTypeRef, query: z.record(z.string(), z.string()).default({}) }),
  access: draftReadAccess,
  write: false,
  inputError: 'INVALID_QUERY',
  run: (ctx, input) => listEntriesAdmin(ctx, 'page', input.collection, Object.entries(input.query)),
});

export const listItems = defineOperation({
  name: 'items.list',
  input: z.strictObject({ collection: itemTypeRef, query: z.record(z.string(), z.string()).default({}) }),
  access: draftReadAccess,
  write: false,
  inputError: 'INVALID_QUERY',
  run: (ctx, input) => listEntriesAdmin(ctx, 'item', input.collection, Object.entries(input.query)),
});
