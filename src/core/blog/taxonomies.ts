import { and, asc, count, eq, ne } from 'drizzle-orm';
import { z } from 'zod';
import { blogAuthors } from '../../db/schema/index.js';
import type { Ctx } from '../context.js';
import { CmsError } from '../errors.js';
import { loadMedia } from '../media/resolve.js';
import { limitParam, pageParam, paginationOf } from '../media/schemas.js';
import { defineOperation } from '../operation.js';
import { createAuthorInput, createTermInput, entityRef, slugify, updateAuthorInput, updateTermInput } from './schemas.js';
import { toAuthorShape, toTermShape } from './shapes.js';
import { findAuthor, findTerm, termLabel, termTable, type TermKind } from './store.js';

const readAccess = { role: 'viewer' } as const;
const writeAccess = { role: 'editor' } as const;
const pagingInput = z.strictObject({ page: pageParam, limit: limitParam });

const slugTaken = (what: string, slug: string) =>
  new CmsError('SLUG_EXISTS', `A ${what} with the slug "${slug}" already exists`, [{ path: 'slug', message: 'already exists' }]);

const needSlug = () =>
  new CmsError('VALIDATION_FAILED', 'Invalid input: slug: give a slug; none can be made from the name', [{ path: 'slug', message: 'required' }]);

async function checkProfileImage(ctx: Ctx, id: string | null | undefined): Promise<void> {
  if (!id) return;
  if (!(await loadMedia(ctx.db, ctx.project.id, [id])).has(id.toLowerCase())) {
    throw new CmsError('VALIDATION_FAILED', `Invalid input: profileImageId: media "${id}" does not exist`, [
      { path: 'profileImageId', message: `media "${id}" does not exist` },
    ]);
  }
}

async function authorSlugFree(ctx: Ctx, slug: string, exceptId?: string): Promise<void> {
  const [taken] = await ctx.db.select({ id: blogAuthors.id }).from(blogAuthors)
    .where(and(eq(blogAuthors.projectId, ctx.project.id), eq(blogAuthors.slug, slug), exceptId ? ne(blogAuthors.id, exceptId) : undefined));
  if (taken) throw slugTaken('blog author', slug);
}

export const authorOperations = {
  'blog.authors.create': defineOperation({
    name: 'blog.authors.create',
    input: createAuthorInput,
    access: writeAccess,
    write: true,
    async run(ctx, input) {
      const slug = input.slug ?? slugify(`${input.firstName ?? ''} ${input.lastName ?? ''}`);
      if (!slug) throw needSlug();
      await authorSlugFree(ctx, slug);
      await checkProfileImage(ctx, input.profileImageId);
      const now = ctx.clock.now();
      const [row] = await ctx.db.insert(blogAuthors).values({
        projectId: ctx.project.id,
        slug,
        firstName: input.firstName ?? '',
        lastName: input.lastName ?? '',
        email: input.email ?? null,
        bio: input.bio ?? '',
        title: input.title ?? '',
        profileImageId: input.profileImageId?.toLowerCase() ?? null,
        links: input.links ?? {},
        createdAt: now,
        updatedAt: now,
      }).returning();
      ctx.contentChanged();
      return toAuthorShape(row!);
    },
  }),
  'blog.authors.update': defineOperation({
    name: 'blog.authors.update',
    input: updateAuthorInput,
    access: writeAccess,
    write: true,
    async run(ctx, input) {
      const row = await findAuthor(ctx, input.id);
      if (input.slug !== undefined && input.slug !== row.slug) await authorSlugFree(ctx, input.slug, row.id);
      await checkProfileImage(ctx, input.profileImageId);
      const { id: _id, ...changes } = input;
      const [updated] = await ctx.db.update(blogAuthors).set({
        ...changes,
        ...(input.profileImageId !== undefined ? { profileImageId: input.profileImageId?.toLowerCase() ?? null } : {}),
        updatedAt: ctx.clock.now(),
      }).where(eq(blogAuthors.id, row.id)).returning();
      ctx.contentChanged();
      return toAuthorShape(updated!);
    },
  }),
  /** Posts by the author keep existing, with no author. */
  'blog.authors.delete': defineOperation({
    name: 'blog.authors.delete',
    input: z.strictObject({ id: entityRef }),
    access: writeAccess,
    write: true,
    async run(ctx, input) {
      const row = await findAuthor(ctx, input.id);
      await ctx.db.delete(blogAuthors).where(eq(blogAuthors.id, row.id));
      ctx.contentChanged();
      return { id: row.id, slug: row.slug };
    },
  }),
  'blog.authors.get': defineOperation({
    name: 'blog.authors.get',
    input: z.strictObject({ id: entityRef }),
    access: readAccess,
    write: false,
    run: async (ctx, input) => toAuthorShape(await findAuthor(ctx, input.id)),
  }),
  'blog.authors.list': defineOperation({
    name: 'blog.authors.list',
    input: pagingInput,
    access: readAccess,
    write: false,
    inputError: 'INVALID_QUERY',
    async run(ctx, input) {
      const where = eq(blogAuthors.projectId, ctx.project.id);
      const [rows, totals] = await Promise.all([
        ctx.db.select().from(blogAuthors).where(where)
          .orderBy(asc(blogAuthors.lastName), asc(blogAuthors.firstName), asc(blogAuthors.slug))
          .limit(input.limit).offset((input.page - 1) * input.limit),
        ctx.db.select({ n: count() }).from(blogAuthors).where(where),
      ]);
      return { data: rows.map(toAuthorShape), pagination: paginationOf(totals[0]?.n ?? 0, input.page, input.limit) };
    },
  }),
} as const;

async function termSlugFree(ctx: Ctx, kind: TermKind, slug: string, exceptId?: string): Promise<void> {
  const table = termTable(kind);
  const [taken] = await ctx.db.select({ id: table.id }).from(table)
    .where(and(eq(table.projectId, ctx.project.id), eq(table.slug, slug), exceptId ? ne(table.id, exceptId) : undefined));
  if (taken) throw slugTaken(termLabel(kind).toLowerCase(), slug);
}

async function createTerm(ctx: Ctx, kind: TermKind, input: { name: string; slug?: string | undefined }) {
  const table = termTable(kind);
  const slug = input.slug ?? slugify(input.name);
  if (!slug) throw needSlug();
  await termSlugFree(ctx, kind, slug);
  const [row] = await ctx.db.insert(table).values({ projectId: ctx.project.id, slug, name: input.name, createdAt: ctx.clock.now() }).returning();
  ctx.contentChanged();
  return toTermShape(row!);
}

async function updateTerm(ctx: Ctx, kind: TermKind, input: { id: string; name?: string | undefined; slug?: string | undefined }) {
  const table = termTable(kind);
  const row = await findTerm(ctx, kind, input.id);
  if (input.slug !== undefined && input.slug !== row.slug) await termSlugFree(ctx, kind, input.slug, row.id);
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.slug !== undefined ? { slug: input.slug } : {}),
  };
  // Nothing given, nothing to change: the term as it is (an update of no columns is no statement).
  if (Object.keys(changes).length === 0) return toTermShape(row);
  const [updated] = await ctx.db.update(table).set(changes).where(eq(table.id, row.id)).returning();
  ctx.contentChanged();
  return toTermShape(updated!);
}

/** Posts lose the term; they are not deleted. */
async function deleteTerm(ctx: Ctx, kind: TermKind, id: string) {
  const row = await findTerm(ctx, kind, id);
  await ctx.db.delete(termTable(kind)).where(eq(termTable(kind).id, row.id));
  ctx.contentChanged();
  return { id: row.id, slug: row.slug };
}

async function listTerms(ctx: Ctx, kind: TermKind, input: { page: number; limit: number }) {
  const table = termTable(kind);
  const where = eq(table.projectId, ctx.project.id);
  const [rows, totals] = await Promise.all([
    ctx.db.select().from(table).where(where).orderBy(asc(table.name), asc(table.slug))
      .limit(input.limit).offset((input.page - 1) * input.limit),
    ctx.db.select({ n: count() }).from(table).where(where),
  ]);
  return { data: rows.map(toTermShape), pagination: paginationOf(totals[0]?.n ?? 0, input.page, input.limit) };
}

export const createCategory = defineOperation({
  name: 'blog.categories.create',
  input: createTermInput,
  access: writeAccess,
  write: true,
  run: (ctx, input) => createTerm(ctx, 'category', input),
});

export const updateCategory = defineOperation({
  name: 'blog.categories.update',
  input: updateTermInput,
  access: writeAccess,
  write: true,
  run: (ctx, input) => updateTerm(ctx, 'category', input),
});

export const deleteCategory = defineOperation({
  name: 'blog.categories.delete',
  input: z.strictObject({ id: entityRef }),
  access: writeAccess,
  write: true,
  run: (ctx, input) => deleteTerm(ctx, 'category', input.id),
});

export const getCategory = defineOperation({
  name: 'blog.categories.get',
  input: z.strictObject({ id: entityRef }),
  access: readAccess,
  write: false,
  run: async (ctx, input) => toTermShape(await findTerm(ctx, 'category', input.id)),
});

export const listCategories = defineOperation({
  name: 'blog.categories.list',
  input: pagingInput,
  access: readAccess,
  write: false,
  inputError: 'INVALID_QUERY',
  run: (ctx, input) => listTerms(ctx, 'category', input),
});

export const createTag = defineOperation({
  name: 'blog.tags.create',
  input: createTermInput,
  access: writeAccess,
  write: true,
  run: (ctx, input) => createTerm(ctx, 'tag', input),
});

export const updateTag = defineOperation({
  name: 'blog.tags.update',
  input: updateTermInput,
  access: writeAccess,
  write: true,
  run: (ctx, input) => updateTerm(ctx, 'tag', input),
});

export const deleteTag = defineOperation({
  name: 'blog.tags.delete',
  input: z.strictObject({ id: entityRef }),
  access: writeAccess,
  write: true,
  run: (ctx, input) => deleteTerm(ctx, 'tag', input.id),
});

export const getTag = defineOperation({
  name: 'blog.tags.get',
  input: z.strictObject({ id: entityRef }),
  access: readAccess,
  write: false,
  run: async (ctx, input) => toTermShape(await findTerm(ctx, 'tag', input.id)),
});

export const listTags = defineOperation({
  name: 'blog.tags.list',
  input: pagingInput,
  access: readAccess,
  write: false,
  inputError: 'INVALID_QUERY',
  run: (ctx, input) => listTerms(ctx, 'tag', input),
});

/** The term operations by verb, for code that picks one by the term's kind (the ButterCMS import). */
export const categoryOperations = { create: createCategory, update: updateCategory, delete: deleteCategory, get: getCategory, list: listCategories } as const;
export const tagOperations = { create: createTag, update: updateTag, delete: deleteTag, get: getTag, list: listTags } as const;
