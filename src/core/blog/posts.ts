import { and, eq, isNull, ne } from 'drizzle-orm';
import { z } from 'zod';
import { blogPosts } from '../../db/schema/index.js';
import { findReferrers } from '../content/entries.js';
import { parseSort } from '../content/query.js';
import type { Ctx } from '../context.js';
import { CmsError } from '../errors.js';
import { defineOperation } from '../operation.js';
import { limitParam, pageParam, paginationOf, queryBool } from '../media/schemas.js';
import { postSortFields, queryPosts, slugList } from './query.js';
import { createPostInput, entityRef, maxBodyBytes, postStatuses, slugify, updatePostInput } from './schemas.js';
import { isRecord } from '../content/localize.js';
import { writeLocale } from '../content/locale-writes.js';
import { toPostShape } from './shapes.js';
import { findPost, loadPostRelations, resolvePostRefs, setPostTerms, type PostRow } from './store.js';
import { holdForDelete } from '../reference-locks.js';

const readAccess = { role: 'viewer' } as const;
const writeAccess = { role: 'editor' } as const;

function checkBody(body: string | undefined): void {
  if (body !== undefined && Buffer.byteLength(body, 'utf8') > maxBodyBytes) {
    throw new CmsError('PAYLOAD_TOO_LARGE', `The post body is over ${maxBodyBytes} bytes`, { maxBytes: maxBodyBytes });
  }
}

async function assertSlugFree(ctx: Ctx, slug: string, exceptId?: string): Promise<void> {
  const [taken] = await ctx.db.select({ id: blogPosts.id }).from(blogPosts)
    .where(and(eq(blogPosts.projectId, ctx.project.id), eq(blogPosts.slug, slug), isNull(blogPosts.deletedAt),
      exceptId ? ne(blogPosts.id, exceptId) : undefined));
  if (taken) throw new CmsError('SLUG_EXISTS', `A blog post with the slug "${slug}" already exists`, [{ path: 'slug', message: 'already exists' }]);
}

/** SEO keys set to null are cleared, not stored. */
const cleanSeo = (seo: Record<string, unknown>) => Object.fromEntries(Object.entries(seo).filter(([, v]) => v !== null && v !== undefined));

async function shapeOne(ctx: Ctx, row: PostRow) {
  return toPostShape(ctx, row, await loadPostRelations(ctx, [row]));
}

/** A post's title, summary, body and SEO in another locale than the default. */
interface PostLocaleInput {
  title?: string | undefined;
  summary?: string | undefined;
  body?: string | undefined;
  seo?: Record<string, unknown> | undefined;
}

/**
 * One locale's title, summary, body and SEO merged into what it had: a member given replaces
 * (an empty summary or body clears it, so the locale falls back), SEO merges key by key (null
 * clears a key). A locale left with nothing is dropped.
 */
function mergePostLocale(locales: Record<string, Record<string, unknown>>, code: string, input: PostLocaleInput): Record<string, Record<string, unknown>> {
  const own: Record<string, unknown> = { ...locales[code] };
  for (const member of ['title', 'summary', 'body'] as const) {
    const v = input[member];
    if (v === undefined) continue;
    if (v === '') delete own[member];
    else own[member] = v;
  }
  if (input.seo !== undefined) {
    const seo = cleanSeo({ ...(isRecord(own.seo) ? own.seo : {}), ...input.seo });
    if (Object.keys(seo).length) own.seo = seo;
    else delete own.seo;
  }
  const out = { ...locales };
  if (Object.keys(own).length) out[code] = own;
  else delete out[code];
  return out;
}

export const createPost = defineOperation({
  name: 'blog.posts.create',
  input: createPostInput,
  access: writeAccess,
  write: true,
  async run(ctx, input) {
    const slug = input.slug ?? slugify(input.title);
    if (!slug) throw new CmsError('VALIDATION_FAILED', 'Invalid input: slug: give a slug; none can be made from this title', [{ path: 'slug', message: 'required' }]);
    const pl = ctx.project.locales;
    const locale = writeLocale(pl, input.locale);
    // Written in another locale, the title is that locale's and, since a post always has one,
    // the default's too until it is written there; summary, body and SEO are the locale's only.
    const other = locale !== pl.defaultLocale;
    checkBody(input.body);
    await assertSlugFree(ctx, slug);
    const refs = await resolvePostRefs(ctx, { ...input, ogImageId: input.seo?.ogImageId });
    const status = input.status ?? 'draft';
    const now = ctx.clock.now();
    const publishedAt = input.publishedAt ? new Date(input.publishedAt) : status === 'published' ? now : null;
    const [row] = await ctx.db.insert(blogPosts).values({
      projectId: ctx.project.id,
      slug,
      title: input.title,
      body: other ? '' : input.body ?? '',
      summary: other ? '' : input.summary ?? '',
      status,
      authorId: refs.authorId ?? null,
      featuredImageId: input.featuredImageId?.toLowerCase() ?? null,
      seo: other ? {} : cleanSeo(input.seo ?? {}),
      locales: other ? mergePostLocale({}, locale, input) : {},
      publishedAt,
      createdAt: now,
      updatedAt: now,
    }).returning();
    await setPostTerms(ctx.db, row!.id, refs.categoryIds, refs.tagIds);
    ctx.contentChanged();
    return shapeOne(ctx, row!);
  },
});

export const updatePost = defineOperation({
  name: 'blog.posts.update',
  input: updatePostInput,
  access: writeAccess,
  write: true,
  async run(ctx, input) {
    const row = await findPost(ctx, input.id, true);
    const pl = ctx.project.locales;
    const locale = writeLocale(pl, input.locale);
    checkBody(input.body);
    if (input.slug !== undefined && input.slug !== row.slug) await assertSlugFree(ctx, input.slug, row.id);
    const refs = await resolvePostRefs(ctx, { ...input, ogImageId: input.seo?.ogImageId });
    const set: Partial<typeof blogPosts.$inferInsert> = { updatedAt: ctx.clock.now() };
    if (locale !== pl.defaultLocale) {
      // Another locale: its title, summary, body and SEO; the rest of the post is shared.
      set.locales = mergePostLocale(row.locales, locale, input);
    } else {
      if (input.title !== undefined) set.title = input.title;
      if (input.body !== undefined) set.body = input.body;
      if (input.summary !== undefined) set.summary = input.summary;
      if (input.seo !== undefined) set.seo = cleanSeo({ ...row.seo, ...input.seo });
    }
    if (input.slug !== undefined) set.slug = input.slug;
    if (input.publishedAt !== undefined) set.publishedAt = input.publishedAt ? new Date(input.publishedAt) : null;
    if (input.featuredImageId !== undefined) set.featuredImageId = input.featuredImageId?.toLowerCase() ?? null;
    if (refs.authorId !== undefined) set.authorId = refs.authorId;
    const [updated] = await ctx.db.update(blogPosts).set(set).where(eq(blogPosts.id, row.id)).returning();
    await setPostTerms(ctx.db, row.id, refs.categoryIds, refs.tagIds);
    ctx.contentChanged();
    return shapeOne(ctx, updated!);
  },
});

export const publishPost = defineOperation({
  name: 'blog.posts.publish',
  input: z.strictObject({ id: entityRef }),
  access: writeAccess,
  write: true,
  async run(ctx, input) {
    const row = await findPost(ctx, input.id, true);
    const now = ctx.clock.now();
    // A publishedAt set beforehand (a backdated or imported post) is kept.
    const [updated] = await ctx.db.update(blogPosts).set({ status: 'published', publishedAt: row.publishedAt ?? now, updatedAt: now })
      .where(eq(blogPosts.id, row.id)).returning();
    ctx.contentChanged();
    return shapeOne(ctx, updated!);
  },
});

export const unpublishPost = defineOperation({
  name: 'blog.posts.unpublish',
  input: z.strictObject({ id: entityRef }),
  access: writeAccess,
  write: true,
  async run(ctx, input) {
    const row = await findPost(ctx, input.id, true);
    const [updated] = await ctx.db.update(blogPosts).set({ status: 'draft', publishedAt: null, updatedAt: ctx.clock.now() })
      .where(eq(blogPosts.id, row.id)).returning();
    ctx.contentChanged();
    return shapeOne(ctx, updated!);
  },
});

/** Soft-deletes a post (its slug is free again). Content that references it blocks this unless forced. */
export const deletePost = defineOperation({
  name: 'blog.posts.delete',
  input: z.strictObject({ id: entityRef, force: queryBool.optional() }),
  access: writeAccess,
  write: true,
  async run(ctx, input) {
    const row = await findPost(ctx, input.id, true);
    if (!input.force) {
      await holdForDelete(ctx.db, row.id);
      const referrers = await findReferrers(ctx.db, ctx.project.id, row.id);
      if (referrers.length) {
        throw new CmsError('HAS_REFERENCES',
          `Blog post "${row.slug}" is referenced by ${referrers.length} entr${referrers.length === 1 ? 'y' : 'ies'}; remove the references or delete with force=true`,
          { referrers: referrers.map((r) => ({ id: r.id, slug: r.slug, type: r.type, typeSlug: r.typeSlug })) });
      }
    }
    const now = ctx.clock.now();
    await ctx.db.update(blogPosts).set({ deletedAt: now, updatedAt: now }).where(eq(blogPosts.id, row.id));
    ctx.contentChanged();
    return { id: row.id, slug: row.slug };
  },
});

export const getPost = defineOperation({
  name: 'blog.posts.get',
  input: z.strictObject({ id: entityRef }),
  access: readAccess,
  write: false,
  async run(ctx, input) {
    return shapeOne(ctx, await findPost(ctx, input.id));
  },
});

/** Every post, drafts included, for the admin API and the CLI. */
export const listPosts = defineOperation({
  name: 'blog.posts.list',
  input: z.strictObject({
    page: pageParam,
    limit: limitParam,
    status: z.enum(postStatuses).optional(),
    search: z.string().max(200).optional(),
    category: z.string().max(1000).optional(),
    tag: z.string().max(1000).optional(),
    author: z.string().max(1000).optional(),
    sort: z.string().max(200).optional(),
  }),
  access: readAccess,
  write: false,
  inputError: 'INVALID_QUERY',
  async run(ctx, input) {
    const { rows, total } = await queryPosts(ctx, {
      drafts: true,
      status: input.status,
      categories: slugList(input.category),
      tags: slugList(input.tag),
      authors: slugList(input.author),
      search: input.search,
      sort: parseSort(input.sort, postSortFields, '-updatedAt'),
      page: input.page,
      limit: input.limit,
    });
    const rel = await loadPostRelations(ctx, rows);
    return { data: rows.map((r) => toPostShape(ctx, r, rel)), pagination: paginationOf(total, input.page, input.limit) };
  },
});
