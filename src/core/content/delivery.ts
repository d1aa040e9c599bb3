import { and, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { collectionItems, contentRevisions, itemSlugHistory, pages, pageSlugHistory, pageTypes } from '../../db/schema/index.js';
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

/** A path inside the content as a bound `text[]`: no user text ever becomes SQL. */
const jsonPath = (path: readonly string[]) => sql`array[${sql.join(path.map((s) => sql`${s}`), sql`, `)}]::text[]`;

/**
 * Sorting by a content field (`fields.price`): numbers compare as numbers, strings as text,
 * booleans false before true. Kinds never mix: numbers come first, then strings, booleans, then
 * objects and arrays, in either direction; a missing value (absent or null) goes last. Ties fall
 * to the next key and finally to the id, so pages never overlap.
 */
function contentSortColumns(content: SQL, path: readonly string[], d: boolean): SQL[] {
  const v = sql`(${content} #> ${jsonPath(path)})`;
  const dir = d ? sql`desc` : sql`asc`;
  return [
    sql`(case jsonb_typeof(${v}) when 'number' then 0 when 'string' then 1 when 'boolean' then 2 when 'object' then 3 when 'array' then 3 else 4 end) asc`,
    sql`(case when jsonb_typeof(${v}) = 'number' then (${v})::text::numeric end) ${dir}`,
    sql`(case when jsonb_typeof(${v}) = 'string' then ${v} #>> '{}' end) ${dir}`,
    sql`(case when jsonb_typeof(${v}) in ('boolean', 'object', 'array') then ${v} end) ${dir}`,
  ];
}

/** Core columns that are never null: their order needs no `nulls last`, so one index serves both directions. */
const notNullSortFields = new Set(['createdAt', 'updatedAt', 'name', 'slug', '_sortOrder']);

/**
 * The ORDER BY of a list. Ties always fall to the id, ascending, so pages never overlap. The
 * nullable `publishedAt` puts missing dates last in both directions (two indexes); the columns
 * that are never null are written without `nulls last` (the same order), so an index of
 * `(…, column, id)` serves them ascending and, read backwards, descending (PostgreSQL then sorts
 * only the rows of equal keys by id: an incremental sort).
 */
function sortColumns(table: Table, content: SQL, sort: ListQuery['sort']): SQL[] {
  const cols: Record<string, SQL> = {
    createdAt: sql`${table.createdAt}`, updatedAt: sql`${table.updatedAt}`, publishedAt: sql`${table.publishedAt}`,
    name: sql`${table.name}`, slug: sql`${table.slug}`,
    ...(table === collectionItems ? { _sortOrder: sql`${collectionItems.sortOrder}` } : {}),
  };
  const out = sort.flatMap(({ field, desc: d, path }) => {
    if (path) return contentSortColumns(content, path, d);
    const col = cols[field]!;
    if (notNullSortFields.has(field)) return [d ? sql`${col} desc` : sql`${col} asc`];
    return [d ? sql`${col} desc nulls last` : sql`${col} asc nulls last`];
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
    const path = jsonPath(f.target.path);
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

/** A list query, ready to run: its conditions, order and window, and what identifies its total. */
interface ListPlan {
  kind: EntryKind;
  query: ListQuery;
  drafts: boolean;
  /** Set when the list is known to be empty without asking (an unknown page type). */
  empty: boolean;
  condition: SQL | undefined;
  order: SQL[];
  offset: number;
  /** The type's slug when the query names one type (collections, `pageType`). */
  typeSlug: string | null;
  /** What the total depends on: everything of the query but its page, sort and read options. */
  totalKey: string;
}

async function planList(ctx: Ctx, opts: ListOptions): Promise<ListPlan> {
  const { kind, pairs, drafts } = opts;
  // Collections sort by their own fields too (`sort=fields.price`); pages keep the contract's keys.
  const query = parseListQuery(pairs, kind === 'page' ? pageSortFields : itemSortFields, { sortByContentFields: kind === 'item' });
  const table: Table = kind === 'page' ? pages : collectionItems;
  const content = drafts ? sql`${table.draftContent}` : sql`${table.publishedContent}`;
  const where: Array<SQL | undefined> = [eq(table.projectId, ctx.project.id), isNull(table.deletedAt)];
  if (!drafts) where.push(eq(table.status, 'published'));
  const plan: ListPlan = {
    kind, query, drafts, empty: false, condition: undefined, order: sortColumns(table, content, query.sort),
    offset: (query.page - 1) * query.limit, typeSlug: null, totalKey: '',
  };
  let typeId = '';
  let filters: FilterCondition[] = [];
  if (kind === 'page') {
    const pageType = parsePageTypeFilter(pairs);
    if (pageType) {
      const type = await storeOf('page').findType(ctx.db, ctx.project.id, pageType);
      // An unknown page type matches nothing: a list filter, not a lookup.
      if (!type) return { ...plan, empty: true };
      where.push(eq(pages.pageTypeId, type.id));
      typeId = type.id;
      plan.typeSlug = type.slug;
    }
  } else {
    const type = await loadType(ctx, storeOf('item'), opts.typeSlug ?? '');
    where.push(eq(collectionItems.collectionTypeId, type.id));
    typeId = type.id;
    plan.typeSlug = type.slug;
    filters = parseCollectionFilters(pairs);
    for (const f of filters) where.push(filterCondition(content, table, f));
  }
  plan.condition = and(...where);
  plan.totalKey = JSON.stringify([ctx.project.id, kind, drafts, typeId, filters]);
  return plan;
}

/**
 * The project's content revision (the sum of its slots), read in the same statement (so from the same snapshot) as the
 * rows beside it. Every committed content write raises it, in this process or any other.
 */
const revisionOf = (projectId: string) =>
  sql<number>`coalesce((select sum(${contentRevisions.revision}) from ${contentRevisions} where ${contentRevisions.projectId} = ${projectId}), 0)`.mapWith(Number);

async function countMatches(ctx: Ctx, plan: ListPlan): Promise<number> {
  const columns = { n: count(), revision: revisionOf(ctx.project.id) };
  const [row] = plan.kind === 'page'
    ? await ctx.db.select(columns).from(pages).where(plan.condition)
    : await ctx.db.select(columns).from(collectionItems).where(plan.condition);
  const total = row?.n ?? 0;
  ctx.services.listTotals.set(ctx.db, plan.totalKey, { revision: row?.revision ?? 0, total });
  return total;
}

/**
 * Runs the page of rows and, only when it cannot be told otherwise, the count: a short or empty
 * first page is its own total, and a total counted at the current revision is still exact (the
 * totals are remembered by `services.listTotals`, keyed on everything but page, size and sort).
 */
async function runList<R extends { revision: number }>(ctx: Ctx, plan: ListPlan, selectRows: () => Promise<R[]>): Promise<{ rows: R[]; total: number }> {
  if (plan.empty) return { rows: [], total: 0 };
  const known = ctx.services.listTotals.get(ctx.db, plan.totalKey);
  // Without a known total, both queries go out together (PostgreSQL runs them side by side).
  const counting = known ? null : countMatches(ctx, plan);
  counting?.catch(() => {});
  const rows = await selectRows();
  const { limit } = plan.query;
  if (rows.length > 0 && rows.length < limit) return { rows, total: plan.offset + rows.length };
  if (rows.length === 0 && plan.offset === 0) return { rows, total: 0 };
  if (known && rows.length > 0 && known.revision === rows[0]!.revision) return { rows, total: known.total };
  return { rows, total: await (counting ?? countMatches(ctx, plan)) };
}

/**
 * The ids of the page's rows and their place in it, ordered and windowed off an index before any
 * content is read: the query around it joins the whole rows for these 15–25 ids only.
 */
function idWindow(ctx: Ctx, plan: ListPlan) {
  const table: Table = plan.kind === 'page' ? pages : collectionItems;
  const position = sql<number>`row_number() over (order by ${sql.join(plan.order, sql`, `)})`.mapWith(Number).as('position');
  return ctx.db.select({ id: table.id, position }).from(table)
    .where(plan.condition).orderBy(...plan.order).limit(plan.query.limit).offset(plan.offset).as('window');
}

/** What a public read shows of an entry: its content and SEO of the mode (draft or published) only. */
interface DeliveryRow {
  id: string;
  name: string;
  slug: string;
  typeSlug: string;
  content: Record<string, unknown>;
  seo: Record<string, unknown>;
  publishedAt: Date | null;
  updatedAt: Date;
}

/** The public list: only the columns it delivers, the type's slug joined, the revision beside. */
async function listDeliveryRows(ctx: Ctx, plan: ListPlan): Promise<{ rows: DeliveryRow[]; total: number }> {
  const { drafts } = plan;
  const revision = revisionOf(ctx.project.id);
  const { rows, total } = await runList(ctx, plan, () => {
    if (plan.kind === 'page') {
      const w = idWindow(ctx, plan);
      return ctx.db.select({
        id: pages.id, name: pages.name, slug: pages.slug, typeSlug: pageTypes.slug,
        content: drafts ? pages.draftContent : pages.publishedContent, seo: drafts ? pages.seo : pages.publishedSeo,
        publishedAt: pages.publishedAt, updatedAt: pages.updatedAt, revision,
      }).from(w).innerJoin(pages, eq(pages.id, w.id)).innerJoin(pageTypes, eq(pageTypes.id, pages.pageTypeId))
        .orderBy(w.position);
    }
    const w = idWindow(ctx, plan);
    return ctx.db.select({
      id: collectionItems.id, name: collectionItems.name, slug: collectionItems.slug,
      content: drafts ? collectionItems.draftContent : collectionItems.publishedContent,
      publishedAt: collectionItems.publishedAt, updatedAt: collectionItems.updatedAt, revision,
    }).from(w).innerJoin(collectionItems, eq(collectionItems.id, w.id)).orderBy(w.position)
      .then((items) => items.map((r) => ({ ...r, typeSlug: plan.typeSlug ?? '', seo: null })));
  });
  return {
    rows: rows.map((r) => ({
      id: r.id, name: r.name, slug: r.slug, typeSlug: r.typeSlug, content: r.content ?? {}, seo: r.seo ?? {},
      publishedAt: r.publishedAt, updatedAt: r.updatedAt,
    })),
    total,
  };
}

/** The admin list: whole rows, for the write shape. */
async function listEntryRows(ctx: Ctx, plan: ListPlan): Promise<{ rows: Array<EntryRow & { typeSlug: string }>; total: number }> {
  const revision = revisionOf(ctx.project.id);
  const { rows, total } = await runList<EntryRow & { typeSlug: string; revision: number }>(ctx, plan, async () => {
    if (plan.kind === 'page') {
      const w = idWindow(ctx, plan);
      const found = await ctx.db.select({ row: pages, typeSlug: pageTypes.slug, revision }).from(w)
        .innerJoin(pages, eq(pages.id, w.id)).innerJoin(pageTypes, eq(pageTypes.id, pages.pageTypeId)).orderBy(w.position);
      return found.map(({ row, typeSlug, revision: rev }) => ({ ...row, typeId: row.pageTypeId, sortOrder: 0, typeSlug, revision: rev }));
    }
    const w = idWindow(ctx, plan);
    const found = await ctx.db.select({ row: collectionItems, revision }).from(w)
      .innerJoin(collectionItems, eq(collectionItems.id, w.id)).orderBy(w.position);
    return found.map(({ row, revision: rev }) => ({ ...row, typeId: row.collectionTypeId, seo: {}, publishedSeo: null, typeSlug: plan.typeSlug ?? '', revision: rev }));
  });
  return { rows, total };
}

const pagination = (query: ListQuery, total: number) => ({ total, page: query.page, limit: query.limit, totalPages: Math.ceil(total / query.limit) });

/** Builds the public read shapes of a batch of entries, resolving what they point at together. */
async function toReadShapes(ctx: Ctx, kind: EntryKind, rows: DeliveryRow[], drafts: boolean, read: Pick<ListQuery, 'fields' | 'media' | 'refTypes'>) {
  const selected = rows.map((r) => selectFields(r.content, read.fields));
  const resolver = await createResolver(ctx.db, selected, rows.map((r) => r.seo.ogImageId), {
    drafts, media: read.media, refTypes: read.refTypes, baseUrl: ctx.settings.baseUrl, projectId: ctx.project.id, projectSlug: ctx.project.slug,
  });
  return rows.map((r, i) => {
    const base = { id: r.id, name: r.name, slug: r.slug, type: r.typeSlug, fields: resolver.content(selected[i]!) };
    const times = { publishedAt: r.publishedAt ? r.publishedAt.toISOString() : null, updatedAt: r.updatedAt.toISOString() };
    if (kind === 'item') return { ...base, ...times };
    const seo = r.seo;
    const seoOut: Record<string, unknown> = {};
    for (const k of seoKeys) {
      if (k === 'ogImageId') seoOut.ogImage = resolver.mediaById(seo.ogImageId);
      else seoOut[k] = seo[k] ?? null;
    }
    return { ...base, seo: seoOut, ...times };
  });
}

export async function listEntriesAdmin<K extends EntryKind>(ctx: Ctx, kind: K, typeSlug: string | undefined, pairs: QueryPairs) {
  const plan = await planList(ctx, { kind, typeSlug, pairs, drafts: true });
  const { rows, total } = await listEntryRows(ctx, plan);
  return { data: rows.map((r) => toWriteShape(kind, r, r.typeSlug)), pagination: pagination(plan.query, total) };
}

const queryInput = z.record(z.string(), z.string()).or(z.array(z.tuple([z.string(), z.string()]))).default([])
  .transform((q): QueryPairs => (Array.isArray(q) ? q : Object.entries(q)));

async function readListPage(ctx: Ctx, kind: EntryKind, collection: string | undefined, pairs: QueryPairs, drafts: boolean) {
  const plan = await planList(ctx, { kind, typeSlug: collection, pairs, drafts });
  const { rows, total } = await listDeliveryRows(ctx, plan);
  return { data: await toReadShapes(ctx, kind, rows, drafts, plan.query), pagination: pagination(plan.query, total) };
}

/** A page of entries, read and resolved each time: whole answers are cached by the doors, not here. */
function deliverList(ctx: Ctx, kind: EntryKind, input: { collection?: string | undefined; query: QueryPairs; preview: boolean }) {
  return readListPage(ctx, kind, input.collection, input.query, readsDrafts(ctx, input.preview));
}

export const deliverPages = defineOperation({
  name: 'delivery.pages.list',
  input: z.strictObject({ collection: z.string().optional(), query: queryInput, preview: z.boolean().default(false) }),
  access: publicReadAccess,
  write: false,
  run: (ctx, input) => deliverList(ctx, 'page', input),
});

export const deliverItems = defineOperation({
  name: 'delivery.items.list',
  input: z.strictObject({ collection: z.string().optional(), query: queryInput, preview: z.boolean().default(false) }),
  access: publicReadAccess,
  write: false,
  run: (ctx, input) => deliverList(ctx, 'item', input),
});

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

/** One published entry by its slug (or a slug it had before). */
async function deliverOne(ctx: Ctx, kind: EntryKind, input: { slug: string; collection?: string | undefined; query: QueryPairs; preview: boolean }) {
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
  const { row } = found;
  const [data] = await toReadShapes(ctx, kind, [{
    id: row.id, name: row.name, slug: row.slug, typeSlug,
    content: (drafts ? row.draftContent : row.publishedContent) ?? {}, seo: (drafts ? row.seo : row.publishedSeo) ?? {},
    publishedAt: row.publishedAt, updatedAt: row.updatedAt,
  }], drafts, read);
  return { data, redirect: found.redirect };
}

export const deliverPage = defineOperation({
  name: 'delivery.pages.get',
  input: z.strictObject({ slug: z.string(), collection: z.string().optional(), query: queryInput, preview: z.boolean().default(false) }),
  access: publicReadAccess,
  write: false,
  run: (ctx, input) => deliverOne(ctx, 'page', input),
});

export const deliverItem = defineOperation({
  name: 'delivery.items.get',
  input: z.strictObject({ slug: z.string(), collection: z.string().optional(), query: queryInput, preview: z.boolean().default(false) }),
  access: publicReadAccess,
  write: false,
  run: (ctx, input) => deliverOne(ctx, 'item', input),
});

export const deliveryOperations = {
  'delivery.pages.list': deliverPages,
  'delivery.pages.get': deliverPage,
  'delivery.items.list': deliverItems,
  'delivery.items.get': deliverItem,
} as const;
