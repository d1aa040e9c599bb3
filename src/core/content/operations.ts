import { z } from 'zod';
import { defineOperation, type Access } from '../operation.js';
import { createEntry, deleteEntry, findEntry, publishEntry, toWriteShape, unpublishEntry, updateEntry } from './entries.js';
import { listEntriesAdmin } from './delivery.js';
import type { EntryKind } from './store.js';

const writeAccess: Access = { role: 'editor', key: 'content:write' };
const draftReadAccess: Access = { role: 'viewer', key: 'content:write' };

const slugString = z.string().min(1).max(255);
export const refSchema = z.union([z.strictObject({ id: z.string().min(1) }), z.strictObject({ slug: slugString })]);
const fieldsSchema = z.record(z.string(), z.unknown());
const seoInput = z.record(z.string(), z.unknown());
const name = z.string().trim().min(1, 'must be 1 to 255 characters').max(255, 'must be 1 to 255 characters');
const version = z.number().int().positive();
const forceFlag = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true').default(false);

/** Both kinds get the same seven verbs; only the type's name and the SEO member differ. */
function entryOperations<K extends EntryKind>(kind: K) {
  const p = kind === 'page' ? 'pages' : 'items';
  const typeKey = kind === 'page' ? 'pageTypeSlug' : 'collectionTypeSlug';
  const typeRef = kind === 'page' ? z.string().optional() : z.string().min(1).optional();
  const ops = {
    create: defineOperation({
      name: `${p}.create`,
      input: z.strictObject({
        [typeKey]: z.string().min(1),
        name,
        slug: slugString,
        fields: fieldsSchema.optional(),
        ...(kind === 'page' ? { seo: seoInput.optional() } : { sortOrder: z.number().int().optional() }),
        status: z.enum(['draft', 'published']).optional(),
      }) as z.ZodType<{ name: string; slug: string; fields?: Record<string, unknown>; seo?: Record<string, unknown>; sortOrder?: number; status?: 'draft' | 'published' } & Record<string, unknown>>,
      access: writeAccess,
      write: true,
      run: (ctx, input) => createEntry(ctx, kind, {
        typeSlug: input[typeKey] as string, name: input.name, slug: input.slug, fields: input.fields, seo: input.seo,
        status: input.status, sortOrder: input.sortOrder,
      }),
    }),
    update: defineOperation({
      name: `${p}.update`,
      input: z.strictObject({
        ref: refSchema,
        collection: typeRef,
        name: name.optional(),
        slug: slugString.optional(),
        fields: fieldsSchema.optional(),
        ...(kind === 'page' ? { seo: seoInput.optional() } : { sortOrder: z.number().int().optional() }),
        version: version.optional(),
      }) as z.ZodType<{ ref: z.infer<typeof refSchema>; collection?: string; name?: string; slug?: string; fields?: Record<string, unknown>; seo?: Record<string, unknown>; sortOrder?: number; version?: number }>,
      access: writeAccess,
      write: true,
      run: (ctx, input) => updateEntry(ctx, kind, {
        ref: input.ref, typeSlug: input.collection, name: input.name, slug: input.slug, fields: input.fields,
        seo: input.seo, sortOrder: input.sortOrder, expectedVersion: input.version,
      }),
    }),
    publish: defineOperation({
      name: `${p}.publish`,
      input: z.strictObject({ ref: refSchema, collection: typeRef }),
      access: writeAccess,
      write: true,
      run: (ctx, input) => publishEntry(ctx, kind, input.ref, input.collection),
    }),
    unpublish: defineOperation({
      name: `${p}.unpublish`,
      input: z.strictObject({ ref: refSchema, collection: typeRef }),
      access: writeAccess,
      write: true,
      run: (ctx, input) => unpublishEntry(ctx, kind, input.ref, input.collection),
    }),
    delete: defineOperation({
      name: `${p}.delete`,
      input: z.strictObject({ ref: refSchema, collection: typeRef, force: forceFlag }),
      access: writeAccess,
      write: true,
      run: (ctx, input) => deleteEntry(ctx, kind, input.ref, input.collection, input.force),
    }),
    get: defineOperation({
      name: `${p}.get`,
      input: z.strictObject({ ref: refSchema, collection: typeRef }),
      access: draftReadAccess,
      write: false,
      async run(ctx, input) {
        const { row, type } = await findEntry(ctx, kind, input.ref, input.collection);
        return toWriteShape(kind, row, type.slug);
      },
    }),
    list: defineOperation({
      name: `${p}.list`,
      input: z.strictObject({ collection: typeRef, query: z.record(z.string(), z.string()).default({}) }),
      access: draftReadAccess,
      write: false,
      inputError: 'INVALID_QUERY',
      run: (ctx, input) => listEntriesAdmin(ctx, kind, input.collection, Object.entries(input.query)),
    }),
  };
  return ops;
}

export const pageOperations = entryOperations('page');
export const itemOperations = entryOperations('item');
