import { and, count, desc, eq, ilike, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { collectionItems, collectionTypes, contentRevisions, itemSlugHistory, pages, pageSlugHistory, pageTypes } from '../../db/schema/index.js';
import type { Ctx } from '../context.js';
import { CmsError } from '../errors.js';
import { defineOperation, type Access } from '../operation.js';
import {
  parseCollectionFilters, parseListQuery, parsePageTypeFilter, parseReadOptions, selectFields,
  type FilterCondition, type ListQuery, type QueryPairs,
} from './query.js';
import { createResolver } from './resolve.js';
import { isLocaleValues, localize, localizedContentSql, localeOfQuery, localizeSeo, type LocaleRead, type Localized } from './localize.js';
import { localizedFieldNames } from '../locales/model.js';
import { storedFields } from '../schema/index.js';
import type { LocaleValues } from '../../db/schema/index.js';
import { toWriteShape } from './entries.js';
import { seoKeys } from './shapes.js';
import { loadType } from './entries.js';
import { storeOf, type EntryKind, type EntryRow, type EntryType } from './store.js';

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
  /** The `locale` of a public read; filters and sorts on content then see that locale's values. */
  locale?: LocaleRead | null;
  /** The admin list: `search` (name or slug) and `status` (draft, published, scheduled) apply. */
  admin?: boolean;
}

/** The admin list's own parameters: `search` in name or slug, `status` draft|published|scheduled. */
export interface AdminListFilter { search?: string; status?: 'draft' | 'published' | 'scheduled' }
export const adminListStatuses = ['draft', 'published', 'scheduled'] as const;

function parseAdminListFilter(pairs: QueryPairs): AdminListFilter {
  let search: string | undefined;
  let status: string | undefined;
  for (const [k, v] of pairs) {
    if (k === 'search') search = v.trim() || undefined;
    if (k === 'status') status = v.trim() || undefined;
  }
  if (search !== undefined && search.length > 200) {
    throw new CmsError('INVALID_QUERY', 'Invalid query parameter search: at most 200 characters', { parameter: 'search', reason: 'at most 200 characters' });
  }
  const known = adminListStatuses.find((s) => s === status);
  if (status !== undefined && !known) {
    const reason = `must be one of ${adminListStatuses.join(', ')}`;
    throw new CmsError('INVALID_QUERY', `Invalid query parameter status: ${reason}`, { parameter: 'status', reason });
  }
  return { ...(search ? { search } : {}), ...(known ? { status: known } : {}) };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The conditions of an admin list filter. A scheduled entry waits for its publishAt; a draft does not. */
function adminFilterConditions(table: typeof pages | typeof collectionItems, f: AdminListFilter): SQL[] {
  const out: SQL[] = [];
  if (f.search) {
    const like = `%${escapeLike(f.search)}%`;
    const match = or(ilike(table.name, like), ilike(table.slug, like));
    if (match) out.push(match);
  }
  if (f.status === 'published') out.push(eq(table.status, 'published'));
  if (f.status === 'draft') out.push(and(ne(table.status, 'published'), isNull(table.publishAt)) ?? sql`false`);
  if (f.status === 'scheduled') out.push(and(ne(table.status, 'published'), isNotNull(table.publishAt)) ?? sql`false`);
  return out;
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
  locale: LocaleRead | null;
  /** The localized fields of the type, when the query names one type. */
  localized: ReadonlySet<string> | null;
  /** Filtered on content: each such query is likely its own, and its order is not worth keeping. */
  filtered: boolean;
}

async function planList(ctx: Ctx, opts: ListOptions): Promise<ListPlan> {
  const { kind, pairs, drafts } = opts;
  // Collections sort by their own fields too (`sort=fields.price`); pages keep the contract's keys.
  const query = parseListQuery(pairs, kind === 'page' ? pageSortFields : itemSortFields, { sortByContentFields: kind === 'item' });
  const table: Table = kind === 'page' ? pages : collectionItems;
  const stored = drafts ? sql`${table.draftContent}` : sql`${table.publishedContent}`;
  const locale = opts.locale ?? null;
  // Without a locale, the very statement of before (the list indexes serve it as they did).
  const content = locale ? localizedContentSql(locale, stored, drafts ? sql`${table.draftLocales}` : sql`${table.publishedLocales}`) : stored;
  const where: Array<SQL | undefined> = [eq(table.projectId, ctx.project.id), isNull(table.deletedAt)];
  if (!drafts) where.push(eq(table.status, 'published'));
  const plan: ListPlan = {
    kind, query, drafts, empty: false, condition: undefined, order: sortColumns(table, content, query.sort),
    offset: (query.page - 1) * query.limit, typeSlug: null, totalKey: '', locale, localized: null, filtered: false,
  };
  let typeId = '';
  let filters: FilterCondition[] = [];
  const adminFilter = opts.admin ? parseAdminListFilter(pairs) : {};
  where.push(...adminFilterConditions(table, adminFilter));
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
    // The admin list may name no collection: then it lists every collection's items (as the
    // pages list does every page type's), and filters match each item's own fields.
    if (!(opts.admin && opts.typeSlug === undefined)) {
      const type = await loadType(ctx, storeOf('item'), opts.typeSlug ?? '');
      where.push(eq(collectionItems.collectionTypeId, type.id));
      typeId = type.id;
      plan.typeSlug = type.slug;
      plan.localized = localizedFieldNames(type.fields);
    }
    filters = parseCollectionFilters(pairs);
    for (const f of filters) where.push(filterCondition(content, table, f));
    plan.filtered = filters.length > 0;
  }
  plan.condition = and(...where);
  // Filters match the locale's values: each locale counts its own total.
  plan.totalKey = JSON.stringify([ctx.project.id, kind, drafts, typeId, filters, ...(locale ? [locale.code] : []), ...(opts.admin ? [adminFilter] : [])]);
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
 * What a page of `got` rows, asked for `asked` from `offset`, tells of the list's length: a short
 * page ends the list, an empty one at the start is an empty list; anything else tells nothing.
 */
const lengthTold = (offset: number, got: number, asked: number): number | null =>
  (got < asked && (got > 0 || offset === 0) ? offset + got : null);

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
  const told = lengthTold(plan.offset, rows.length, plan.query.limit);
  if (told !== null) return { rows, total: told };
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
  /** With a `locale`: the other locales' values of the mode, and which fields of the type are localized. */
  locales?: LocaleValues | null;
  seoLocales?: LocaleValues | null;
  localized?: ReadonlySet<string>;
}

/** A type's localized fields, from its stored field list. */
const localizedOfStored = (fields: unknown): ReadonlySet<string> =>
  localizedFieldNames(storedFields(Array.isArray(fields) ? fields : []));

type RevisionedRow = Omit<DeliveryRow, 'content' | 'seo'> & { content: Record<string, unknown> | null; seo: Record<string, unknown> | null; revision: number };

/**
 * The public list's rows, only the columns it delivers, the type's slug joined, the revision
 * beside: the page of the plan (`ids` null: its window, in order), or the rows of `ids` that
 * still match the plan's conditions, in any order.
 */
async function selectDeliveryRows(ctx: Ctx, plan: ListPlan, ids: string[] | null): Promise<RevisionedRow[]> {
  const { drafts, locale } = plan;
  const revision = revisionOf(ctx.project.id);
  if (plan.kind === 'page') {
    // Other locales' columns are read only when a locale is asked for.
    const none = sql<null>`null`;
    const columns = {
      id: pages.id, name: pages.name, slug: pages.slug, typeSlug: pageTypes.slug,
      content: drafts ? pages.draftContent : pages.publishedContent, seo: drafts ? pages.seo : pages.publishedSeo,
      publishedAt: pages.publishedAt, updatedAt: pages.updatedAt, revision,
      locales: locale ? (drafts ? pages.draftLocales : pages.publishedLocales) : none,
      seoLocales: locale ? (drafts ? pages.seoLocales : pages.publishedSeoLocales) : none,
      typeFields: locale ? pageTypes.fields : none,
    };
    const found = ids
      ? await ctx.db.select(columns).from(pages).innerJoin(pageTypes, eq(pageTypes.id, pages.pageTypeId))
        .where(and(inArray(pages.id, ids), plan.condition))
      : await (() => {
        const w = idWindow(ctx, plan);
        return ctx.db.select(columns).from(w).innerJoin(pages, eq(pages.id, w.id)).innerJoin(pageTypes, eq(pageTypes.id, pages.pageTypeId))
          .orderBy(w.position);
      })();
    if (!locale) return found.map(({ typeFields: _f, locales: _l, seoLocales: _s, ...r }) => r);
    const byType = new Map<string, ReadonlySet<string>>();
    return found.map(({ typeFields, locales, seoLocales, ...r }) => {
      if (!byType.has(r.typeSlug)) byType.set(r.typeSlug, localizedOfStored(typeFields));
      return { ...r, locales: isLocaleValues(locales) ? locales : null, seoLocales: isLocaleValues(seoLocales) ? seoLocales : null, localized: byType.get(r.typeSlug)! };
    });
  }
  const columns = {
    id: collectionItems.id, name: collectionItems.name, slug: collectionItems.slug,
    content: drafts ? collectionItems.draftContent : collectionItems.publishedContent,
    publishedAt: collectionItems.publishedAt, updatedAt: collectionItems.updatedAt, revision,
    locales: locale ? (drafts ? collectionItems.draftLocales : collectionItems.publishedLocales) : sql<null>`null`,
  };
  const items = ids
    ? await ctx.db.select(columns).from(collectionItems).where(and(inArray(collectionItems.id, ids), plan.condition))
    : await (() => {
      const w = idWindow(ctx, plan);
      return ctx.db.select(columns).from(w).innerJoin(collectionItems, eq(collectionItems.id, w.id)).orderBy(w.position);
    })();
  const rest = { typeSlug: plan.typeSlug ?? '', seo: null };
  if (!locale) return items.map(({ locales: _l, ...r }) => ({ ...r, ...rest }));
  return items.map(({ locales, ...r }) => ({ ...r, ...rest, locales: isLocaleValues(locales) ? locales : null, localized: plan.localized ?? new Set<string>() }));
}

const deliveryRowOf = ({ revision: _r, ...r }: RevisionedRow): DeliveryRow => ({ ...r, content: r.content ?? {}, seo: r.seo ?? {} });

/** The public list's page of rows and its total, from the database. */
async function listDeliveryRows(ctx: Ctx, plan: ListPlan): Promise<{ rows: DeliveryRow[]; total: number }> {
  const { rows, total } = await runList(ctx, plan, () => selectDeliveryRows(ctx, plan, null));
  return { rows: rows.map(deliveryRowOf), total };
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
    const found = await ctx.db.select({ row: collectionItems, typeSlug: collectionTypes.slug, revision }).from(w)
      .innerJoin(collectionItems, eq(collectionItems.id, w.id)).innerJoin(collectionTypes, eq(collectionTypes.id, collectionItems.collectionTypeId))
      .orderBy(w.position);
    return found.map(({ row, typeSlug, revision: rev }) => ({
      ...row, typeId: row.collectionTypeId, seo: {}, publishedSeo: null, seoLocales: {}, publishedSeoLocales: null, typeSlug, revision: rev,
    }));
  });
  return { rows, total };
}

const pagination = (query: ListQuery, total: number) => ({ total, page: query.page, limit: query.limit, totalPages: Math.ceil(total / query.limit) });

/** The media ids an SEO object points at: its `ogImageId`, or each locale's under `locale=*`. */
const ogImageIds = (seo: Record<string, unknown>): unknown[] => {
  const id = seo.ogImageId;
  return id !== null && typeof id === 'object' ? Object.values(id) : [id];
};

/** The name `_fallbacks` gives an SEO member: the delivered one (`ogImageId` is delivered as `ogImage`). */
const seoFallbackName = (member: string) => `seo.${member === 'ogImageId' ? 'ogImage' : member}`;

/**
 * Builds the public read shapes of a batch of entries, resolving what they point at together.
 * With a `locale`, localized fields and SEO are the locale's (fallbacks resolved, or every
 * locale's for `*`), references are read in it, and each entry lists its `_fallbacks`.
 */
async function toReadShapes(ctx: Ctx, kind: EntryKind, rows: DeliveryRow[], drafts: boolean, read: Pick<ListQuery, 'fields' | 'media' | 'refTypes'>, locale: LocaleRead | null) {
  const none = new Set<string>();
  const localized: Localized[] | null = locale ? rows.map((r) => localize(locale, r.content, r.locales, r.localized ?? none)) : null;
  const seoLocalized: Localized[] | null = locale && kind === 'page' ? rows.map((r) => localizeSeo(locale, r.seo, r.seoLocales, seoKeys)) : null;
  const seoOf = (i: number): Record<string, unknown> => seoLocalized?.[i]!.values ?? rows[i]!.seo;
  const selected = rows.map((r, i) => selectFields(localized?.[i]!.values ?? r.content, read.fields));
  const resolver = await createResolver(ctx.db, selected, rows.flatMap((_r, i) => ogImageIds(seoOf(i))), {
    drafts, media: read.media, refTypes: read.refTypes, baseUrl: ctx.settings.baseUrl, projectId: ctx.project.id, projectSlug: ctx.project.slug,
    locale,
  });
  const ogImage = (id: unknown): unknown => {
    if (locale?.code !== '*' || id === null || typeof id !== 'object') return resolver.mediaById(id);
    return Object.fromEntries(Object.entries(id).map(([code, v]) => [code, resolver.mediaById(v)]));
  };
  return rows.map((r, i) => {
    const base = { id: r.id, name: r.name, slug: r.slug, type: r.typeSlug, fields: resolver.content(selected[i]!) };
    const times = { publishedAt: r.publishedAt ? r.publishedAt.toISOString() : null, updatedAt: r.updatedAt.toISOString() };
    // Fields left out by `fields=` are not named either.
    const fallbacks = localized ? { _fallbacks: localized[i]!.fallbacks.filter((name) => Object.hasOwn(selected[i]!, name)) } : {};
    if (kind === 'item') return { ...base, ...times, ...fallbacks };
    const seo = seoOf(i);
    const seoOut: Record<string, unknown> = {};
    for (const k of seoKeys) {
      if (k === 'ogImageId') seoOut.ogImage = ogImage(seo.ogImageId);
      else seoOut[k] = seo[k] ?? null;
    }
    if (fallbacks._fallbacks) fallbacks._fallbacks.push(...seoLocalized![i]!.fallbacks.map(seoFallbackName));
    return { ...base, seo: seoOut, ...times, ...fallbacks };
  });
}

export async function listEntriesAdmin<K extends EntryKind>(ctx: Ctx, kind: K, typeSlug: string | undefined, pairs: QueryPairs) {
  const plan = await planList(ctx, { kind, typeSlug, pairs, drafts: true, admin: true });
  const { rows, total } = await listEntryRows(ctx, plan);
  // Every locale's values, in a project with several (the admin list shows what the editor edits).
  return { data: rows.map((r) => toWriteShape(kind, r, r.typeSlug, ctx.project.locales)), pagination: pagination(plan.query, total) };
}

const queryInput = z.record(z.string(), z.string()).or(z.array(z.tuple([z.string(), z.string()]))).default([])
  .transform((q): QueryPairs => (Array.isArray(q) ? q : Object.entries(q)));

type ReadShape = Awaited<ReturnType<typeof toReadShapes>>[number];

/** The ids of a stretch of the list's order, read off its index. */
async function pageOfIds(ctx: Ctx, plan: ListPlan, offset: number, limit: number): Promise<string[]> {
  const table: Table = plan.kind === 'page' ? pages : collectionItems;
  const rows = await ctx.db.select({ id: table.id }).from(table).where(plan.condition).orderBy(...plan.order).limit(limit).offset(offset);
  return rows.map((r) => r.id);
}

/** The ids of a filtered list's page, read each time, and the list's length when the page tells it. */
async function pageByFilter(ctx: Ctx, plan: ListPlan): Promise<{ ids: string[]; length: number | null }> {
  const ids = await pageOfIds(ctx, plan, plan.offset, plan.query.limit);
  return { ids, length: lengthTold(plan.offset, ids.length, plan.query.limit) };
}

/** How many ids of a list's order the memory keeps together: a chunk is read with one indexed query. */
const idChunk = 500;

/**
 * The ids of the plan's page, from the list's order kept in chunks of `idChunk` (a chunk not
 * kept is read and kept), and the list's length when a chunk read tells it.
 */
async function idsFromMemory(ctx: Ctx, plan: ListPlan, gen: number): Promise<{ ids: string[]; length: number | null }> {
  const memory = ctx.services.readMemory;
  const projectId = ctx.project.id;
  const { limit } = plan.query;
  const orderKey = `ids ${JSON.stringify([plan.totalKey, plan.query.sort])}`;
  const order: string[] = [];
  let length: number | null = null;
  const first = Math.floor(plan.offset / idChunk);
  for (let c = first; c <= Math.floor((plan.offset + limit - 1) / idChunk); c++) {
    const known = memory.get(projectId, gen, `${orderKey} ${c}`);
    // Only the chunks below, arrays of ids, are kept under an order key.
    let chunk = Array.isArray(known) ? (known as string[]) : null;
    if (!chunk) {
      chunk = await pageOfIds(ctx, plan, c * idChunk, idChunk);
      // An id in memory: its 36 characters and the array's pointer to it.
      memory.set(projectId, gen, `${orderKey} ${c}`, chunk, 64 + chunk.length * 64);
    }
    order.push(...chunk);
    if (chunk.length < idChunk) {
      // A short chunk holds the end of the list (an empty one past the end does not say where).
      length = lengthTold(c * idChunk, chunk.length, idChunk);
      break;
    }
  }
  return { ids: order.slice(plan.offset - first * idChunk, plan.offset - first * idChunk + limit), length };
}

/**
 * A public list served from what earlier reads of the project's current generation kept
 * (`services.readMemory`): the list's order in chunks of ids, its total, and each entry's read
 * shape, so that a query never seen before, over entries read before, costs no database work
 * at all. What is missing is read and kept: a chunk of ids off the list's index, the count, and
 * the rows of the entries without a shape (resolved together, as `toReadShapes` always does).
 * Null when nothing may be kept for this read, or when an entry of the order no longer matches
 * (then the exact path answers).
 */
async function listFromMemory(ctx: Ctx, plan: ListPlan): Promise<{ data: ReadShape[]; total: number } | null> {
  const memory = ctx.services.readMemory;
  const projectId = ctx.project.id;
  const gen = memory.generation(ctx.db, projectId);
  if (gen === null) return null;
  if (plan.empty) return { data: [], total: 0 };
  const { limit, fields, media, refTypes } = plan.query;
  const { ids, length } = plan.filtered ? await pageByFilter(ctx, plan) : await idsFromMemory(ctx, plan, gen);
  const keptTotal = memory.get(projectId, gen, `total ${plan.totalKey}`);
  let total = length ?? (typeof keptTotal === 'number' ? keptTotal : null);
  if (total === null) {
    total = await countMatches(ctx, plan);
    memory.set(projectId, gen, `total ${plan.totalKey}`, total, 16);
  }
  const readKey = `shape ${JSON.stringify([plan.kind, plan.drafts, plan.locale?.code ?? null, fields.include ? [...fields.include].sort() : null, [...fields.exclude].sort(), media, refTypes])}`;
  const shapes = new Map<string, ReadShape>();
  const missing: string[] = [];
  for (const id of ids) {
    // Only what toReadShapes made is ever kept under a shape key (below).
    const shape = memory.get(projectId, gen, `${readKey} ${id}`) as ReadShape | undefined;
    if (shape === undefined) missing.push(id);
    else shapes.set(id, shape);
  }
  if (missing.length > 0) {
    const rows = (await selectDeliveryRows(ctx, plan, missing)).map(deliveryRowOf);
    const made = await toReadShapes(ctx, plan.kind, rows, plan.drafts, plan.query, plan.locale);
    made.forEach((shape, i) => {
      // Frozen: a kept shape is shared by every later read (and the HTTP layer keeps its JSON).
      Object.freeze(shape);
      shapes.set(rows[i]!.id, shape);
      // Measured: a read shape takes about 1.25 times its JSON's length in memory.
      memory.set(projectId, gen, `${readKey} ${rows[i]!.id}`, shape, Math.round(1.5 * JSON.stringify(shape).length));
    });
  }
  const data: ReadShape[] = [];
  for (const id of ids) {
    const shape = shapes.get(id);
    if (!shape) return null;
    data.push(shape);
  }
  return { data, total };
}

/** A public list read and resolved now, exactly as of one snapshot. */
async function listFromDatabase(ctx: Ctx, plan: ListPlan): Promise<{ data: ReadShape[]; total: number }> {
  const { rows, total } = await listDeliveryRows(ctx, plan);
  return { data: await toReadShapes(ctx, plan.kind, rows, plan.drafts, plan.query, plan.locale), total };
}

async function readListPage(ctx: Ctx, kind: EntryKind, collection: string | undefined, pairs: QueryPairs, drafts: boolean) {
  const locale = localeOfQuery(ctx.project.locales, pairs);
  const plan = await planList(ctx, { kind, typeSlug: collection, pairs, drafts, locale });
  const { data, total } = await listFromMemory(ctx, plan) ?? await listFromDatabase(ctx, plan);
  const answer = { data, pagination: pagination(plan.query, total) };
  // `locale` is answered only when asked for: without it, the answer of before locales.
  return locale ? { ...answer, locale: locale.code } : answer;
}

/** A page of entries: whole answers are cached by the doors; what they are made of is kept by `listFromMemory`. */
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

/** One of the other locales' columns of a row; anything not shaped as locale values reads as none. */
const localeColumn = (row: EntryRow, column: 'draftLocales' | 'publishedLocales' | 'seoLocales' | 'publishedSeoLocales'): LocaleValues | null => {
  const v: unknown = row[column];
  return isLocaleValues(v) ? v : null;
};

/** One published entry by its slug (or a slug it had before). */
async function deliverOne(ctx: Ctx, kind: EntryKind, input: { slug: string; collection?: string | undefined; query: QueryPairs; preview: boolean }) {
  const drafts = readsDrafts(ctx, input.preview);
  const read = parseReadOptions(input.query);
  const locale = localeOfQuery(ctx.project.locales, input.query);
  let type: EntryType | null = null;
  if (kind === 'item') type = await loadType(ctx, storeOf('item'), input.collection ?? '');
  const found = await findBySlug(ctx, kind, input.slug, type?.id ?? null, drafts);
  if (!found) throw new CmsError('NOT_FOUND', `${kind === 'page' ? 'Page' : 'Collection item'} "${input.slug}" not found`);
  type ??= await storeOf(kind).typeById(ctx.db, found.row.typeId);
  const { row } = found;
  const [data] = await toReadShapes(ctx, kind, [{
    id: row.id, name: row.name, slug: row.slug, typeSlug: type.slug,
    content: (drafts ? row.draftContent : row.publishedContent) ?? {}, seo: (drafts ? row.seo : row.publishedSeo) ?? {},
    publishedAt: row.publishedAt, updatedAt: row.updatedAt,
    ...(locale ? {
      locales: localeColumn(row, drafts ? 'draftLocales' : 'publishedLocales'),
      seoLocales: localeColumn(row, drafts ? 'seoLocales' : 'publishedSeoLocales'),
      localized: localizedFieldNames(type.fields),
    } : {}),
  }], drafts, read, locale);
  return locale ? { data, redirect: found.redirect, locale: locale.code } : { data, redirect: found.redirect };
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
