import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { blogAuthors, blogPosts } from '../../db/schema/index.js';
import { readsDrafts } from '../content/delivery.js';
import { invalid as invalidQuery, maxPage, parseListQuery, parseReadOptions, type FieldSelection, type QueryPairs } from '../content/query.js';
import type { Ctx } from '../context.js';
import { CmsError } from '../errors.js';
import { paginationOf } from '../media/schemas.js';
import { defineOperation, type Access } from '../operation.js';
import { postSortFields, queryPosts, slugList } from './query.js';
import { toPublicAuthor, toPublicPost, toTermShape } from './shapes.js';
import { loadMedia } from '../media/resolve.js';
import { isRecord, localeOfQuery, localize, localizeSeo, type LocaleRead } from '../content/localize.js';
import type { LocaleValues } from '../../db/schema/index.js';
import { seoKeys } from '../content/shapes.js';
import { deliverMedia, loadPostRelations, termTable, type MediaMode, type PostRelations, type PostRow, type TermKind } from './store.js';

/** A post's members that are per locale, besides its SEO. */
const localizedMembers: ReadonlySet<string> = new Set(['title', 'summary', 'body']);

/** A post's other locales' SEO objects, by code (`locales[code].seo`). */
const seoLocalesOf = (row: PostRow): LocaleValues => {
  const out: LocaleValues = {};
  for (const [code, v] of Object.entries(row.locales ?? {})) {
    if (isRecord(v) && isRecord(v.seo)) out[code] = v.seo;
  }
  return out;
};

interface LocalizedPost {
  /** The post as its locale shows it (for `*`: the default's, with `every` laid over it when shaped). */
  row: PostRow;
  fallbacks: string[];
  /** `locale=*`: title, summary, body and SEO, each `{ <code>: value | null }`. */
  every: { text: Record<string, unknown>; seo: Record<string, unknown> } | null;
}

/** A post in the locale read: title, summary and body along the chain, its SEO member by member. */
function localizePost(read: LocaleRead, row: PostRow): LocalizedPost {
  const text = localize(read, { title: row.title, summary: row.summary, body: row.body }, row.locales, localizedMembers);
  const seo = localizeSeo(read, row.seo, seoLocalesOf(row), seoKeys);
  if (read.code === '*') return { row, fallbacks: [], every: { text: text.values, seo: seo.values } };
  const v = text.values;
  // A value that is not text (never written so) reads as the default's.
  const textOf = (name: 'title' | 'summary' | 'body') => { const t = v[name]; return typeof t === 'string' ? t : row[name]; };
  return {
    row: { ...row, title: textOf('title'), summary: textOf('summary'), body: textOf('body'), seo: seo.values },
    fallbacks: [...text.fallbacks, ...seo.fallbacks.map((m) => `seo.${m === 'ogImageId' ? 'ogImage' : m}`)],
    every: null,
  };
}

/**
 * Public posts in a locale: each with its `_fallbacks` (the members delivered from another
 * locale), or under `*` every locale's title, summary, body and SEO members.
 */
async function toLocalizedPosts(ctx: Ctx, read: LocaleRead, rows: PostRow[], options: { media: MediaMode; fields: FieldSelection }) {
  const posts = rows.map((r) => localizePost(read, r));
  const rel: PostRelations = await loadPostRelations(ctx, posts.map((p) => p.row));
  const everyImage = posts.flatMap((p) => { const ids = p.every?.seo.ogImageId; return isRecord(ids) ? Object.values(ids) : []; })
    .filter((id): id is string => typeof id === 'string' && !rel.media.has(id.toLowerCase()));
  if (everyImage.length) for (const [id, m] of await loadMedia(ctx.db, ctx.project.id, everyImage)) rel.media.set(id, m);
  return posts.map(({ row, fallbacks, every }) => {
    const out = toPublicPost(ctx, row, rel, options);
    if (every) {
      for (const k of localizedMembers) if (Object.hasOwn(out, k)) out[k] = every.text[k];
      const seo: Record<string, unknown> = {};
      for (const k of seoKeys) {
        const value = every.seo[k];
        const byCode = isRecord(value) ? value : {};
        if (k === 'ogImageId') seo.ogImage = Object.fromEntries(Object.entries(byCode).map(([c, id]) => [c, deliverMedia(ctx, rel.media, id, options.media)]));
        else seo[k] = byCode;
      }
      out.seo = seo;
    }
    // Members left out by `fields=` are not named either.
    return { ...out, _fallbacks: fallbacks.filter((name) => name.startsWith('seo.') || Object.hasOwn(out, name)) };
  });
}

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
    // Filtering is for collections only: like the page list, the post list refuses filter[...].
    const filter = pairs.find(([key]) => key.startsWith('filter'));
    if (filter) throw invalidQuery(filter[0], 'posts are filtered by category, tag and author, not filter[...]');
    const locale = localeOfQuery(ctx.project.locales, pairs);
    const { rows, total } = await queryPosts(ctx, {
      drafts,
      categories: slugList(last(pairs, 'category')),
      tags: slugList(last(pairs, 'tag')),
      authors: slugList(last(pairs, 'author')),
      sort: query.sort,
      titleChain: locale && locale.code !== '*' ? { chain: locale.chain, defaultLocale: ctx.project.locales.defaultLocale } : undefined,
      page: query.page,
      limit: query.limit,
    });
    const options = { media: query.media, fields: query.fields };
    const pagination = paginationOf(total, query.page, query.limit);
    if (locale) return { data: await toLocalizedPosts(ctx, locale, rows, options), pagination, locale: locale.code };
    const rel = await loadPostRelations(ctx, rows);
    return { data: rows.map((r) => toPublicPost(ctx, r, rel, options)), pagination };
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
    const locale = localeOfQuery(ctx.project.locales, input.query);
    const [row] = await ctx.db.select().from(blogPosts).where(and(
      eq(blogPosts.projectId, ctx.project.id), eq(blogPosts.slug, input.slug), isNull(blogPosts.deletedAt),
      drafts ? undefined : eq(blogPosts.status, 'published'),
    ));
    if (!row) throw new CmsError('NOT_FOUND', `Blog post "${input.slug}" not found`);
    if (locale) {
      const [data] = await toLocalizedPosts(ctx, locale, [row], { media: read.media, fields: read.fields });
      return { data, locale: locale.code };
    }
    const rel = await loadPostRelations(ctx, [row]);
    return { data: toPublicPost(ctx, row, rel, { media: read.media, fields: read.fields }) };
  },
});

/**
 * Categories, tags and authors are not per locale: a `locale` is checked (unknown → 400) and
 * answered beside `data`, and changes nothing else.
 */
const withLocale = <T extends object>(ctx: Ctx, pairs: QueryPairs, answer: () => Promise<T>): Promise<T | (T & { locale: string })> => {
  const locale = localeOfQuery(ctx.project.locales, pairs);
  return answer().then((a) => (locale ? { ...a, locale: locale.code } : a));
};

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
  run: (ctx, input) => withLocale(ctx, input.query, () => listTerms(ctx, 'category', input.query)),
});

const deliverTags = defineOperation({
  name: 'blog.delivery.tags',
  input: z.strictObject({ query: queryInput, preview: z.boolean().default(false) }),
  access: publicReadAccess,
  write: false,
  run: (ctx, input) => withLocale(ctx, input.query, () => listTerms(ctx, 'tag', input.query)),
});

/** Authors without their email addresses; pictures resolved like any delivered media. */
const deliverAuthors = defineOperation({
  name: 'blog.delivery.authors',
  input: z.strictObject({ query: queryInput, preview: z.boolean().default(false) }),
  access: publicReadAccess,
  write: false,
  run: (ctx, input) => withLocale(ctx, input.query, async () => {
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
  }),
});

export const blogDeliveryOperations = {
  'blog.delivery.posts': deliverPosts,
  'blog.delivery.post': deliverPost,
  'blog.delivery.categories': deliverCategories,
  'blog.delivery.tags': deliverTags,
  'blog.delivery.authors': deliverAuthors,
} as const;
