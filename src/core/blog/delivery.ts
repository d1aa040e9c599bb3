import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { blogAuthors, blogPosts } from '../../db/schema/index.js';
import { readsDrafts } from '../content/delivery.js';
import { maxPage, parseListQuery, parseReadOptions, type QueryPairs } from '../content/query.js';
import type { Ctx } from '../context.js';
import { CmsError } from '../errors.js';
import { paginationOf } from '../media/schemas.js';
import { defineOperation, type Access } from '../operation.js';
import { postSortFields, queryPosts, slugList } from './query.js';
import { toPublicAuthor, toPublicPost, toTermShape } from './shapes.js';
import { loadPostRelations, termTable, type TermKind } from './store.js';
import { loadMedia } from '../media/resolve.js';

const publicReadAccess: Access = { role: 'viewer', key: 'read', preview: true };

/** Raw query-string pairs, in order, as the HTTP door hands them over. */
const queryInput = z.record(z.string(), z.string()).or(z.array(z.tuple([z.string(), z.string()]))).default([])
  .transform((q): QueryPairs => (Array.isArray(q) ? q : Object.entries(q)));

const last = (pairs: QueryPairs, name: string): string | undefined => {
  let v: string | undefined;
  for (const [k, val] of pairs) if (k === name) v = val;
  return v;
};

const invalid = (parameter: string, reason: string) =>
  new CmsError('INVALID_QUERY', `Invalid query parameter ${parameter}: ${reason}`, { parameter, reason });

function pagingOf(pairs: QueryPairs): { page: number; limit: number } {
  const read = (name: string, def: number, max: number) => {
    const raw = last(pairs, name);
    if (raw === undefined || raw === '') return def;
    const n = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
    if (!(n >= 1 && n <= max)) throw invalid(name, `must be a whole number from 1 to ${max}, got ${raw}`);
    return n;
  };
  // The same bounds as pages and posts: a larger page would make an offset the database refuses.
  return { page: read('page', 1, maxPage), limit: read('limit', 20, 100) };
}

/** Published posts (drafts too for a preview key), filtered by category, tag and author slugs. */
const deliverPosts = defineOperation({
  name: 'blog.delivery.posts',
  input: z.strictObject({ query: queryInput, preview: z.boolean().default(false) }),
  access: publicReadAccess,
  write: false,
  async run(ctx, input) {
    const drafts = readsDrafts(ctx, input.preview);
    const pairs = input.query;
    const query = parseListQuery(pairs, postSortFields);
    const { rows, total } = await queryPosts(ctx, {
      drafts,
      categories: slugList(last(pairs, 'category')),
      tags: slugList(last(pairs, 'tag')),
      authors: slugList(last(pairs, 'author')),
      sort: query.sort,
      page: query.page,
      limit: query.limit,
    });
    const rel = await loadPostRelations(ctx, rows);
    return {
      data: rows.map((r) => toPublicPost(ctx, r, rel, { media: query.media, fields: query.fields })),
      pagination: paginationOf(total, query.page, query.limit),
    };
  },
});

const deliverPost = defineOperation({
  name: 'blog.delivery.post',
  input: z.strictObject({ slug: z.string().max(255), query: queryInput, preview: z.boolean().default(false) }),
  access: publicReadAccess,
  write: false,
  async run(ctx, input) {
    const drafts = readsDrafts(ctx, input.preview);
    const read = parseReadOptions(input.query);
    const [row] = await ctx.db.select().from(blogPosts).where(and(
      eq(blogPosts.projectId, ctx.project.id), eq(blogPosts.slug, input.slug), isNull(blogPosts.deletedAt),
      drafts ? undefined : eq(blogPosts.status, 'published'),
    ));
    if (!row) throw new CmsError('NOT_FOUND', `Blog post "${input.slug}" not found`);
    const rel = await loadPostRelations(ctx, [row]);
    return { data: toPublicPost(ctx, row, rel, { media: read.media, fields: read.fields }) };
  },
});

async function listTerms(ctx: Ctx, kind: TermKind, pairs: QueryPairs) {
  const table = termTable(kind);
  const { page, limit } = pagingOf(pairs);
  const where = eq(table.projectId, ctx.project.id);
  const [rows, totals] = await Promise.all([
    ctx.db.select().from(table).where(where).orderBy(asc(table.name), asc(table.slug)).limit(limit).offset((page - 1) * limit),
    ctx.db.select({ n: count() }).from(table).where(where),
  ]);
  return { data: rows.map(toTermShape), pagination: paginationOf(totals[0]?.n ?? 0, page, limit) };
}

const deliverCategories = defineOperation({
  name: 'blog.delivery.categories',
  input: z.strictObject({ query: queryInput, preview: z.boolean().default(false) }),
  access: publicReadAccess,
  write: false,
  run: (ctx, input) => listTerms(ctx, 'category', input.query),
});

const deliverTags = defineOperation({
  name: 'blog.delivery.tags',
  input: z.strictObject({ query: queryInput, preview: z.boolean().default(false) }),
  access: publicReadAccess,
  write: false,
  run: (ctx, input) => listTerms(ctx, 'tag', input.query),
});

/** Authors without their email addresses; pictures resolved like any delivered media. */
const deliverAuthors = defineOperation({
  name: 'blog.delivery.authors',
  input: z.strictObject({ query: queryInput, preview: z.boolean().default(false) }),
  access: publicReadAccess,
  write: false,
  async run(ctx, input) {
    const { page, limit } = pagingOf(input.query);
    const { media } = parseReadOptions(input.query);
    const where = eq(blogAuthors.projectId, ctx.project.id);
    const [rows, totals] = await Promise.all([
      ctx.db.select().from(blogAuthors).where(where)
        .orderBy(asc(blogAuthors.lastName), asc(blogAuthors.firstName), asc(blogAuthors.slug)).limit(limit).offset((page - 1) * limit),
      ctx.db.select({ n: count() }).from(blogAuthors).where(where),
    ]);
    const images = await loadMedia(ctx.db, ctx.project.id, rows.map((r) => r.profileImageId).filter((v): v is string => !!v));
    return { data: rows.map((r) => toPublicAuthor(ctx, r, images, media)), pagination: paginationOf(totals[0]?.n ?? 0, page, limit) };
  },
});

export const blogDeliveryOperations = {
  'blog.delivery.posts': deliverPosts,
  'blog.delivery.post': deliverPost,
  'blog.delivery.categories': deliverCategories,
  'blog.delivery.tags': deliverTags,
  'blog.delivery.authors': deliverAuthors,
} as const;
