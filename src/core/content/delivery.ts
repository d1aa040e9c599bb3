import { and, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { collectionItems, itemSlugHistory, pages, pageSlugHistory, pageTypes } from '../../db/schema/index.js';
import type { Ctx } from '../context.js';
import { CmsError } from '../errors.js';
import { defineOperation, type Access } from '../operation.js';
import {
  parseCollectionFilters, parseListQuery, parsePageTypeFilter, parseReadOptions, selectFields,
  type FilterCondition, type ListQuery, type QueryPairs,
} from './query.js';
import { createResolver } from './resolve.js';
import { toWriteShape } from './entries.js';
import { seoKeys } from './shapes.js';
import { loadType } from './entries.js';
import { storeOf, type EntryKind, type EntryRow } from './store.js';

const publicReadAccess: Access = { role: 'viewer', key: 'read', preview: true };

export const pageSortFields = ['createdAt', 'updatedAt', 'publishedAt', 'name', 'slug'] as const;
export const itemSortFields = [...pageSortFields, '_sortOrder'] as const;

/** Drafts are shown to preview keys, and to members and the terminal when they ask. */
export function readsDrafts(ctx: Ctx, asked: boolean): boolean {
  if (ctx.actor.kind === 'key') return ctx.actor.type === 'preview';
  if (ctx.actor.kind === 'anonymous') return false;
  return asked;
}

type Table = typeof pages | typeof collectionItems;

function sortColumns(table: Table, sort: ListQuery['sort']): SQL[] {
  const cols: Record<string, SQL> = {
    createdAt: sql`${table.createdAt}`, updatedAt: sql`${table.updatedAt}`, publishedAt: sql`${table.publishedAt}`,
    name: sql`${table.name}`, slug: sql`${table.slug}`,
    ...(table === collectionItems ? { _sortOrder: sql`${collectionItems.sortOrder}` } : {}),
  };
  const out = sort.map(({ field, desc: d }) => {
    const col = cols[field]!;
    return d ? sql`${col} desc nulls last` : sql`${col} asc nulls last`;
  });
  out.push(sql`${table.id} asc`);
  return out;
}

/**
 * Text PostgreSQL's numeric cast accepts: `12`, `-3`, `12.5`, `.5`, `1e2`, with spaces around;
 * short enough (and with a small enough exponent) that the cast can never overflow.
 */
const numericText = '^\\s*[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]{1,4})?\\s*$';
const numericTextMax = 200;

/**
 * The value as a number for gt/lt/gte/lte: JSON numbers, and strings that look numeric (the
 * contract casts before comparing). Anything else is null, so it never matches a numeric
 * comparison and never breaks the query.
 */
function numericOf(expr: SQL, isJson: boolean): SQL {
  const fromText = (text: SQL) => sql`(case when length(${text}) <= ${numericTextMax} and ${text} ~ ${numericText} then (${text})::numeric end)`;
  if (!isJson) return fromText(expr);
  return sql`(case jsonb_typeof(${expr}) when 'number' then (${expr})::text::numeric when 'string' then ${fromText(sql`(${expr} #>> '{}')`)} end)`;
}

function filterCondition(content: SQL, table: Table, f: FilterCondition): SQL {
  let text: SQL;
  let numeric: SQL;
  if ('core' in f.target) {
    const col = f.target.core === 'name' ? table.name : table.slug;
    text = sql`${col}`;
    numeric = numericOf(text, false);
  } else {
    // Every path segment is a bound parameter: no user text ever becomes SQL. An array, not
    // function arguments, so a path of any depth fits (functions take at most 100 arguments).
    const path = sql`array[${sql.join(f.target.path.map((s) => sql`${s}`), sql`, `)}]::text[]`;
    text = sql`(${content} #>> ${path})`;
    numeric = numericOf(sql`(${content} #> ${path})`, true);
  }
  switch (f.op) {
    case 'eq': return sql`${text} = ${f.value}`;
    case 'ne': return sql`${text} is distinct from ${f.value}`;
    case 'gt': return sql`${numeric} > ${Number(f.value)}`;
    case 'lt': return sql`${numeric} < ${Number(f.value)}`;
    case 'gte': return sql`${numeric} >= ${Number(f.value)}`;
    case 'lte': return sql`${numeric} <= ${Number(f.value)}`;
    case 'contains': {
      const escaped = f.value.replace(/[\\%_]/g, (c) => `\\${c}`);
      return sql`${text} ilike ${`%${escaped}%`} escape '\\'`;
    }
    case 'in': {
      const values = f.value.split(',').map((s) => s.trim());
      return inArray(text, values);
    }
  }
}

interface ListOptions {
  kind: EntryKind;
  typeSlug?: string | undefined;
  pairs: QueryPairs;
  drafts: boolean;
}

interface ListResult {
  rows: Array<EntryRow & { typeSlug: string }>;
  query: ListQuery;
  total: number;
}

async function listRows(ctx: Ctx, opts: ListOptions): Promise<ListResult> {
  const { kind, pairs, drafts } = opts;
  const query = parseListQuery(pairs, kind === 'page' ? pageSortFields : itemSortFields);
  const table: Table = kind === 'page' ? pages : collectionItems;
  const content = drafts ? sql`${table.draftContent}` : sql`${table.publishedContent}`;
  const where: Array<SQL | undefined> = [eq(table.projectId, ctx.project.id), isNull(table.deletedAt)];
  if (!drafts) where.push(eq(table.status, 'published'));
  let typeSlugs = new Map<string, string>();
  if (kind === 'page') {
    const pageType = parsePageTypeFilter(pairs);
    if (pageType) {
      const type = await storeOf('page').findType(ctx.db, ctx.project.id, pageType);
      // An unknown page type matches nothing: a list filter, not a lookup.
      if (!type) return { rows: [], query, total: 0 };
      where.push(eq(pages.pageTypeId, type.id));
      typeSlugs.set(type.id, type.slug);
    }
  } else {
    const type = await loadType(ctx, storeOf('item'), opts.typeSlug ?? '');
    where.push(eq(collectionItems.collectionTypeId, type.id));
    typeSlugs.set(type.id, type.slug);
    for (const f of parseCollectionFilters(pairs)) where.push(filterCondition(content, table, f));
  }
  const condition = and(...where);
  const offset = (query.page - 1) * query.limit;
  const [rows, totals] = await Promise.all([
    ctx.db.select().from(table as typeof pages).where(condition).orderBy(...sortColumns(table, query.sort)).limit(query.limit).offset(offset),
    ctx.db.select({ n: count() }).from(table as typeof pages).where(condition),
  ]);
  if (kind === 'page' && typeSlugs.size === 0) typeSlugs = await pageTypeSlugs(ctx);
  const entries = (rows as unknown as Array<Record<string, unknown>>).map((r) => {
    const typeId = (kind === 'page' ? r.pageTypeId : r.collectionTypeId) as string;
    return { ...(r as unknown as EntryRow), typeId, seo: (r.seo as Record<string, unknown>) ?? {}, publishedSeo: (r.publishedSeo as Record<string, unknown> | null) ?? null, sortOrder: (r.sortOrder as number) ?? 0, typeSlug: typeSlugs.get(typeId) ?? '' };
  });
  return { rows: entries, query, total: totals[0]?.n ?? 0 };
}

async function pageTypeSlugs(ctx: Ctx): Promise<Map<string, string>> {
  const rows = await ctx.db.select({ id: pageTypes.id, slug: pageTypes.slug }).from(pageTypes).where(eq(pageTypes.projectId, ctx.project.id));
  return new Map(rows.map((r) => [r.id, r.slug]));
}

const pagination = (query: ListQuery, total: number) => ({ total, page: query.page, limit: query.limit, totalPages: Math.ceil(total / query.limit) });

/** Builds the public read shapes of a batch of entries, resolving what they point at together. */
async function toReadShapes(ctx: Ctx, kind: EntryKind, rows: Array<EntryRow & { typeSlug: string }>, drafts: boolean, read: Pick<ListQuery, 'fields' | 'media' | 'refTypes'>) {
  const contents = rows.map((r) => (drafts ? r.draftContent : r.publishedContent ?? {}));
  const seos = rows.map((r) => (drafts ? r.seo : r.publishedSeo ?? {}));
  const selected = contents.map((c) => selectFields(c, read.fields));
  const resolver = await createResolver(ctx.db, selected, seos.map((s) => s.ogImageId as string), {
    drafts, media: read.media, refTypes: read.refTypes, baseUrl: ctx.settings.baseUrl, projectId: ctx.project.id, projectSlug: ctx.project.slug,
  });
  return rows.map((r, i) => {
    const base = { id: r.id, name: r.name, slug: r.slug, type: r.typeSlug, fields: resolver.content(selected[i]!) };
    const times = { publishedAt: r.publishedAt ? r.publishedAt.toISOString() : null, updatedAt: r.updatedAt.toISOString() };
    if (kind === 'item') return { ...base, ...times };
    const seo = seos[i]!;
    const seoOut: Record<string, unknown> = {};
    for (const k of seoKeys) {
      if (k === 'ogImageId') seoOut.ogImage = resolver.mediaById(seo.ogImageId);
      else seoOut[k] = (seo[k] as string | undefined) ?? null;
    }
    return { ...base, seo: seoOut, ...times };
  });
}

export async function listEntriesAdmin(ctx: Ctx, kind: EntryKind, typeSlug: string | undefined, pairs: QueryPairs) {
  const { rows, query, total } = await listRows(ctx, { kind, typeSlug, pairs, drafts: true });
  return { data: rows.map((r) => toWriteShape(kind, r, r.typeSlug)), pagination: pagination(query, total) };
}

const queryInput = z.record(z.string(), z.string()).or(z.array(z.tuple([z.string(), z.string()]))).default([])
  .transform((q) => (Array.isArray(q) ? q : Object.entries(q)) as QueryPairs);

function listOperation(kind: EntryKind) {
  return defineOperation({
    name: kind === 'page' ? 'delivery.pages.list' : 'delivery.items.list',
    input: z.strictObject({ collection: z.string().optional(), query: queryInput, preview: z.boolean().default(false) }),
    access: publicReadAccess,
    write: false,
    async run(ctx, input) {
      const drafts = readsDrafts(ctx, input.preview);
      const { rows, query, total } = await listRows(ctx, { kind, typeSlug: input.collection, pairs: input.query, drafts });
      return { data: await toReadShapes(ctx, kind, rows, drafts, query), pagination: pagination(query, total) };
    },
  });
}

/** A current slug wins; an old one answers the page it moved to, with the redirect filled. */
async function findBySlug(ctx: Ctx, kind: EntryKind, slug: string, typeId: string | null, drafts: boolean): Promise<{ row: EntryRow; redirect: { from: string; to: string; permanent: true } | null } | null> {
  const store = storeOf(kind);
  const visible = (r: EntryRow | null) => (r && (drafts || r.status === 'published') ? r : null);
  const direct = visible(await store.find(ctx.db, ctx.project.id, { slug }, typeId ? { typeId } : {}));
  if (direct) return { row: direct, redirect: null };
  const history = kind === 'page'
    ? await ctx.db.select({ id: pageSlugHistory.pageId }).from(pageSlugHistory)
      .where(and(eq(pageSlugHistory.projectId, ctx.project.id), eq(pageSlugHistory.slug, slug))).orderBy(desc(pageSlugHistory.createdAt))
    : await ctx.db.select({ id: itemSlugHistory.itemId }).from(itemSlugHistory)
      .where(and(eq(itemSlugHistory.collectionTypeId, typeId!), eq(itemSlugHistory.slug, slug))).orderBy(desc(itemSlugHistory.createdAt));
  for (const h of history) {
    const moved = visible(await store.find(ctx.db, ctx.project.id, { id: h.id }));
    if (moved && moved.slug !== slug) return { row: moved, redirect: { from: slug, to: moved.slug, permanent: true } };
  }
  return null;
}

function getOperation(kind: EntryKind) {
  return defineOperation({
    name: kind === 'page' ? 'delivery.pages.get' : 'delivery.items.get',
    input: z.strictObject({ slug: z.string(), collection: z.string().optional(), query: queryInput, preview: z.boolean().default(false) }),
    access: publicReadAccess,
    write: false,
    async run(ctx, input) {
      const drafts = readsDrafts(ctx, input.preview);
      const read = parseReadOptions(input.query);
      let typeId: string | null = null;
      let typeSlug: string | null = null;
      if (kind === 'item') {
        const type = await loadType(ctx, storeOf('item'), input.collection ?? '');
        typeId = type.id;
        typeSlug = type.slug;
      }
      const found = await findBySlug(ctx, kind, input.slug, typeId, drafts);
      if (!found) throw new CmsError('NOT_FOUND', `${kind === 'page' ? 'Page' : 'Collection item'} "${input.slug}" not found`);
      typeSlug ??= (await storeOf(kind).typeById(ctx.db, found.row.typeId)).slug;
      const [data] = await toReadShapes(ctx, kind, [{ ...found.row, typeSlug }], drafts, read);
      return { data, redirect: found.redirect };
    },
  });
}

export const deliveryOperations = {
  'delivery.pages.list': listOperation('page'),
  'delivery.pages.get': getOperation('page'),
  'delivery.items.list': listOperation('item'),
  'delivery.items.get': getOperation('item'),
} as const;
