import { and, desc, eq, getTableColumns, isNull, sql, type SQL } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once.js';
import type { Db } from '../../db/client.js';
import {
  collectionItems, collectionTypes, itemSlugHistory, itemVersions, pages, pageSlugHistory, pageTypes, pageVersions,
  type EntrySnapshot, type LocaleValues,
} from '../../db/schema/index.js';
import type { EventKind } from '../context.js';
import { CmsError } from '../errors.js';
import { activeWebhooksColumn, isTransaction, keepActiveWebhooks, knowsActiveWebhooks } from '../webhooks/outbox.js';
import { storedFields, type SchemaField } from '../schema/index.js';
import { toItemWriteShape, toPageWriteShape, type ItemWriteShape, type PageWriteShape } from './shapes.js';

/**
 * Pages and collection items behave alike (drafts, publish, versions, slug history); a store
 * holds what differs, so each rule is written once for both.
 */
export type EntryKind = 'page' | 'item';

/** What a write answers for each kind: the contract's page and item shapes. */
export interface WriteShapes { page: PageWriteShape; item: ItemWriteShape }
export type WriteShapeOf<K extends EntryKind> = WriteShapes[K];

/** The columns pages and items share, read the same way from either table. */
export interface EntryRow {
  id: string;
  projectId: string;
  typeId: string;
  name: string;
  slug: string;
  status: string;
  draftContent: Record<string, unknown>;
  publishedContent: Record<string, unknown> | null;
  seo: Record<string, unknown>;
  publishedSeo: Record<string, unknown> | null;
  /** Other locales' values of localized fields (draft, and as last published). */
  draftLocales: LocaleValues;
  publishedLocales: LocaleValues | null;
  /** Other locales' SEO (pages; items have none). */
  seoLocales: LocaleValues;
  publishedSeoLocales: LocaleValues | null;
  sortOrder: number;
  version: number;
  publishedAt: Date | null;
  publishAt: Date | null;
  unpublishAt: Date | null;
  createdBy: string | null;
  updatedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export interface EntryType {
  id: string;
  slug: string;
  name: string;
  fields: SchemaField[];
}

/** A stored version: when, by whom, and the entry as it was. */
export interface VersionRow {
  version: number;
  status: string;
  createdAt: Date;
  createdBy: string | null;
}

export interface EntryStore<K extends EntryKind = EntryKind> {
  kind: K;
  label: string;
  events: { created: EventKind; updated: EventKind; published: EventKind; unpublished: EventKind; deleted: EventKind };
  findType(db: Db, projectId: string, slug: string): Promise<EntryType | null>;
  typeById(db: Db, id: string): Promise<EntryType>;
  /** A live (not deleted) entry by id or slug; `forUpdate` locks the row for the transaction. */
  find(db: Db, projectId: string, ref: EntryRef, opts?: { typeId?: string; forUpdate?: boolean }): Promise<EntryRow | null>;
  slugTaken(db: Db, projectId: string, typeId: string, slug: string, exceptId?: string): Promise<boolean>;
  /**
   * Inserts a new entry, or answers null (and inserts nothing) when a live entry of the same
   * type (pages: of the project) holds the slug, committed or being written by another
   * transaction that then commits: the unique index decides, in the same statement.
   */
  insert(db: Db, values: Omit<EntryRow, 'id' | 'deletedAt'> & { id?: string }): Promise<EntryRow | null>;
  update(db: Db, id: string, values: Partial<EntryRow>, expectedVersion?: number): Promise<EntryRow | null>;
  addSlugHistory(db: Db, entry: EntryRow, oldSlug: string, at: Date): Promise<void>;
  snapshot(db: Db, entry: EntryRow, by: string, at: Date, defaultLocale: string): Promise<void>;
  nextSortOrder(db: Db, typeId: string): Promise<number>;
  /** The stored versions, newest first. */
  versions(db: Db, entryId: string): Promise<VersionRow[]>;
  /** The newest snapshot taken at a version (publish and unpublish may both snapshot one version). */
  snapshotAt(db: Db, entryId: string, version: number): Promise<EntrySnapshot | null>;
  /** The write response shape of a row; with `withLocales`, every locale's values beside it. */
  shape(row: EntryRow, typeSlug: string, withLocales: boolean): WriteShapeOf<K>;
}

export type EntryRef = { id: string } | { slug: string };

/** Versions are 32-bit integers in the database: a larger number names no stored version. */
const maxVersion = 2_147_483_647;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const pageRow = (r: typeof pages.$inferSelect): EntryRow => ({ ...r, typeId: r.pageTypeId, sortOrder: 0 });
const itemRow = (r: typeof collectionItems.$inferSelect): EntryRow => ({
  ...r, typeId: r.collectionTypeId, seo: {}, publishedSeo: null, seoLocales: {}, publishedSeoLocales: null,
});

function refCondition(ref: EntryRef, idCol: typeof pages.id | typeof collectionItems.id, slugCol: typeof pages.slug | typeof collectionItems.slug): SQL | null {
  if ('id' in ref) return uuidPattern.test(ref.id) ? eq(idCol, ref.id) : null;
  return eq(slugCol, ref.slug);
}

const typeOf = (t: Pick<typeof pageTypes.$inferSelect, 'id' | 'slug' | 'name' | 'fields'>): EntryType =>
  ({ id: t.id, slug: t.slug, name: t.name, fields: storedFields(t.fields) });

/**
 * A page type or collection by slug. In a write's transaction the project's active webhooks come
 * in the same statement, kept for the events the write emits (unless the transaction knows them).
 */
async function typeBySlug(db: Db, table: typeof pageTypes | typeof collectionTypes, projectId: string, slug: string): Promise<EntryType | null> {
  const columns = { id: table.id, slug: table.slug, name: table.name, fields: table.fields };
  const where = and(eq(table.projectId, projectId), eq(table.slug, slug));
  if (!isTransaction(db) || knowsActiveWebhooks(db, projectId)) {
    const [t] = await db.select(columns).from(table).where(where);
    return t ? typeOf(t) : null;
  }
  const [t] = await db.select({ ...columns, hooks: activeWebhooksColumn(projectId) }).from(table).where(where);
  if (t) keepActiveWebhooks(db, projectId, t.hooks);
  return t ? typeOf(t) : null;
}

type NewEntry = Omit<EntryRow, 'id' | 'deletedAt'> & { id?: string };

/** Every locale's values go into a snapshot, with the default locale they are relative to. */
const snapshotOf = (e: EntryRow, defaultLocale: string): EntrySnapshot => ({
  name: e.name, slug: e.slug, status: e.status, draftContent: e.draftContent, publishedContent: e.publishedContent,
  seo: e.seo, publishedSeo: e.publishedSeo,
  draftLocales: e.draftLocales, publishedLocales: e.publishedLocales, seoLocales: e.seoLocales, publishedSeoLocales: e.publishedSeoLocales,
  defaultLocale,
});

function pageValues(v: Partial<EntryRow>) {
  const { typeId, sortOrder: _s, ...rest } = v;
  return { ...rest, ...(typeId ? { pageTypeId: typeId } : {}) };
}

function itemValues(v: Partial<EntryRow>) {
  const { typeId, seo: _seo, publishedSeo: _pseo, seoLocales: _sl, publishedSeoLocales: _psl, ...rest } = v;
  return { ...rest, ...(typeId ? { collectionTypeId: typeId } : {}) };
}

function newPage(v: NewEntry): typeof pages.$inferInsert {
  const { typeId, sortOrder: _s, ...rest } = v;
  return { ...rest, pageTypeId: typeId };
}

function newItem(v: NewEntry): typeof collectionItems.$inferInsert {
  const { typeId, seo: _seo, publishedSeo: _pseo, seoLocales: _sl, publishedSeoLocales: _psl, ...rest } = v;
  return { ...rest, collectionTypeId: typeId };
}

// The inserts of new entries are built once (builtOnce): a page's two dozen columns are the
// costliest statement of a write for drizzle to build.
const insertPage = builtOnce<typeof pages.$inferInsert, typeof pages.$inferSelect>((db, v) => db.insert(pages).values(v)
  .onConflictDoNothing({ target: [pages.projectId, pages.slug], where: isNull(pages.deletedAt) }).returning(), getTableColumns(pages));
const insertItem = builtOnce<typeof collectionItems.$inferInsert, typeof collectionItems.$inferSelect>((db, v) => db.insert(collectionItems).values(v)
  .onConflictDoNothing({ target: [collectionItems.collectionTypeId, collectionItems.slug], where: isNull(collectionItems.deletedAt) }).returning(),
getTableColumns(collectionItems));

export const pageStore: EntryStore<'page'> = {
  kind: 'page',
  label: 'Page',
  events: { created: 'page.created', updated: 'page.updated', published: 'page.published', unpublished: 'page.unpublished', deleted: 'page.deleted' },
  findType: (db, projectId, slug) => typeBySlug(db, pageTypes, projectId, slug),
  async typeById(db, id) {
    const [t] = await db.select().from(pageTypes).where(eq(pageTypes.id, id));
    if (!t) throw new CmsError('NOT_FOUND', 'Page type not found');
    return typeOf(t);
  },
  async find(db, projectId, ref, opts = {}) {
    const cond = refCondition(ref, pages.id, pages.slug);
    if (!cond) return null;
    const q = db.select().from(pages).where(and(eq(pages.projectId, projectId), isNull(pages.deletedAt), cond,
      opts.typeId ? eq(pages.pageTypeId, opts.typeId) : undefined));
    const [row] = opts.forUpdate ? await q.for('update') : await q;
    return row ? pageRow(row) : null;
  },
  async slugTaken(db, projectId, _typeId, slug, exceptId) {
    const [row] = await db.select({ id: pages.id }).from(pages)
      .where(and(eq(pages.projectId, projectId), eq(pages.slug, slug), isNull(pages.deletedAt), exceptId ? sql`${pages.id} <> ${exceptId}` : undefined));
    return !!row;
  },
  async insert(db, values) {
    const [row] = await insertPage(db, newPage(values));
    return row ? pageRow(row) : null;
  },
  async update(db, id, values, expectedVersion) {
    const [row] = await db.update(pages).set(pageValues(values))
      .where(and(eq(pages.id, id), expectedVersion === undefined ? undefined : eq(pages.version, expectedVersion))).returning();
    return row ? pageRow(row) : null;
  },
  async addSlugHistory(db, entry, oldSlug, at) {
    await db.insert(pageSlugHistory).values({ projectId: entry.projectId, pageId: entry.id, slug: oldSlug, createdAt: at });
  },
  async snapshot(db, entry, by, at, defaultLocale) {
    await db.insert(pageVersions).values({ pageId: entry.id, version: entry.version, status: entry.status, snapshot: snapshotOf(entry, defaultLocale), createdBy: by, createdAt: at });
  },
  async nextSortOrder() { return 0; },
  versions: (db, entryId) => db.select({ version: pageVersions.version, status: pageVersions.status, createdAt: pageVersions.createdAt, createdBy: pageVersions.createdBy })
    .from(pageVersions).where(eq(pageVersions.pageId, entryId)).orderBy(desc(pageVersions.version), desc(pageVersions.createdAt)),
  async snapshotAt(db, entryId, version) {
    if (version > maxVersion) return null;
    const [row] = await db.select({ snapshot: pageVersions.snapshot }).from(pageVersions)
      .where(and(eq(pageVersions.pageId, entryId), eq(pageVersions.version, version))).orderBy(desc(pageVersions.createdAt)).limit(1);
    return row?.snapshot ?? null;
  },
  shape: (row, typeSlug, withLocales) => toPageWriteShape({ ...row, pageTypeId: row.typeId }, typeSlug, withLocales),
};

export const itemStore: EntryStore<'item'> = {
  kind: 'item',
  label: 'Collection item',
  events: {
    created: 'collection_item.created', updated: 'collection_item.updated', published: 'collection_item.published',
    unpublished: 'collection_item.unpublished', deleted: 'collection_item.deleted',
  },
  findType: (db, projectId, slug) => typeBySlug(db, collectionTypes, projectId, slug),
  async typeById(db, id) {
    const [t] = await db.select().from(collectionTypes).where(eq(collectionTypes.id, id));
    if (!t) throw new CmsError('NOT_FOUND', 'Collection type not found');
    return typeOf(t);
  },
  async find(db, projectId, ref, opts = {}) {
    const cond = refCondition(ref, collectionItems.id, collectionItems.slug);
    if (!cond) return null;
    const q = db.select().from(collectionItems).where(and(eq(collectionItems.projectId, projectId), isNull(collectionItems.deletedAt), cond,
      opts.typeId ? eq(collectionItems.collectionTypeId, opts.typeId) : undefined));
    const [row] = opts.forUpdate ? await q.for('update') : await q;
    return row ? itemRow(row) : null;
  },
  async slugTaken(db, _projectId, typeId, slug, exceptId) {
    const [row] = await db.select({ id: collectionItems.id }).from(collectionItems)
      .where(and(eq(collectionItems.collectionTypeId, typeId), eq(collectionItems.slug, slug), isNull(collectionItems.deletedAt),
        exceptId ? sql`${collectionItems.id} <> ${exceptId}` : undefined));
    return !!row;
  },
  async insert(db, values) {
    const [row] = await insertItem(db, newItem(values));
    return row ? itemRow(row) : null;
  },
  async update(db, id, values, expectedVersion) {
    const [row] = await db.update(collectionItems).set(itemValues(values))
      .where(and(eq(collectionItems.id, id), expectedVersion === undefined ? undefined : eq(collectionItems.version, expectedVersion))).returning();
    return row ? itemRow(row) : null;
  },
  async addSlugHistory(db, entry, oldSlug, at) {
    await db.insert(itemSlugHistory).values({ collectionTypeId: entry.typeId, itemId: entry.id, slug: oldSlug, createdAt: at });
  },
  async snapshot(db, entry, by, at, defaultLocale) {
    await db.insert(itemVersions).values({ itemId: entry.id, version: entry.version, status: entry.status, snapshot: snapshotOf(entry, defaultLocale), createdBy: by, createdAt: at });
  },
  async nextSortOrder(db, typeId) {
    const [row] = await db.select({ max: sql<number | null>`max(${collectionItems.sortOrder})` }).from(collectionItems)
      .where(eq(collectionItems.collectionTypeId, typeId));
    return (row?.max ?? -1) + 1;
  },
  versions: (db, entryId) => db.select({ version: itemVersions.version, status: itemVersions.status, createdAt: itemVersions.createdAt, createdBy: itemVersions.createdBy })
    .from(itemVersions).where(eq(itemVersions.itemId, entryId)).orderBy(desc(itemVersions.version), desc(itemVersions.createdAt)),
  async snapshotAt(db, entryId, version) {
    if (version > maxVersion) return null;
    const [row] = await db.select({ snapshot: itemVersions.snapshot }).from(itemVersions)
      .where(and(eq(itemVersions.itemId, entryId), eq(itemVersions.version, version))).orderBy(desc(itemVersions.createdAt)).limit(1);
    return row?.snapshot ?? null;
  },
  shape: (row, typeSlug, withLocales) => toItemWriteShape({ ...row, collectionTypeId: row.typeId }, typeSlug, withLocales),
};

const stores: { [K in EntryKind]: EntryStore<K> } = { page: pageStore, item: itemStore };

export const storeOf = <K extends EntryKind>(kind: K): EntryStore<K> => stores[kind];
