import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './common.js';
import { projects, users } from './projects.js';
import { collectionTypes, pageTypes } from './types.js';

export type ContentValues = Record<string, unknown>;
export type SeoValues = Record<string, unknown>;
/**
 * The values of localized fields in the locales other than the project's default, by locale code:
 * `{ "fr": { "title": "Bonjour" } }`. The default locale's values are the content itself, so a
 * project with one locale never has anything here. Only localized fields appear; a field a locale
 * has no value for is absent (its reads fall back).
 */
export type LocaleValues = Record<string, ContentValues>;

/** What a version snapshot keeps: enough to restore the entry as it was. */
export interface EntrySnapshot {
  name: string;
  slug: string;
  status: string;
  draftContent: ContentValues;
  publishedContent: ContentValues | null;
  seo?: SeoValues;
  publishedSeo?: SeoValues | null;
  /** Other locales' values (absent in snapshots taken before localization, and in one-locale projects' older rows). */
  draftLocales?: LocaleValues;
  publishedLocales?: LocaleValues | null;
  seoLocales?: LocaleValues;
  publishedSeoLocales?: LocaleValues | null;
  /** The project's default locale when the snapshot was taken (the locale of the content columns). */
  defaultLocale?: string;
}

/** What public reads see: published and not deleted (the predicate of the list indexes). */
const publishedPage = (t: { deletedAt: AnyPgColumn; status: AnyPgColumn }) => sql`${t.deletedAt} is null and ${t.status} = 'published'`;
const publishedItem = publishedPage;

export const pages = pgTable('pages', {
  id: id(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  pageTypeId: uuid('page_type_id').notNull().references(() => pageTypes.id),
  name: text('name').notNull(),
  slug: text('slug').notNull(),
  status: text('status').notNull().default('draft'),
  draftContent: jsonb('draft_content').$type<ContentValues>().notNull().default({}),
  publishedContent: jsonb('published_content').$type<ContentValues>(),
  seo: jsonb('seo').$type<SeoValues>().notNull().default({}),
  /** SEO as it was at the last publish, so draft SEO edits stay private until published. */
  publishedSeo: jsonb('published_seo').$type<SeoValues>(),
  draftLocales: jsonb('draft_locales').$type<LocaleValues>().notNull().default({}),
  publishedLocales: jsonb('published_locales').$type<LocaleValues>(),
  /** SEO of the locales other than the default (SEO is per locale). */
  seoLocales: jsonb('seo_locales').$type<LocaleValues>().notNull().default({}),
  publishedSeoLocales: jsonb('published_seo_locales').$type<LocaleValues>(),
  version: integer('version').notNull().default(1),
  publishedAt: ts('published_at'),
  publishAt: ts('publish_at'),
  /** When the scheduler unpublishes the entry (null: not scheduled). */
  unpublishAt: ts('unpublish_at'),
  createdBy: text('created_by'),
  updatedBy: text('updated_by'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  deletedAt: ts('deleted_at'),
}, (t) => [
  // Public lists end their order with the id (a stable order for pages of equal keys); every
  // sort key of the contract has an index of published pages that ends with it too, per project
  // and per page type, so a page of 20 is picked straight off an index. The columns that are never
  // null serve both directions with one index (read backwards for descending, the rows of equal
  // keys then sorted by id); the nullable publishedAt puts nulls last both ways: two indexes. Slugs
  // are unique, so the live-slug index serves the slug order of a project.
  uniqueIndex('pages_project_slug_live_uq').on(t.projectId, t.slug).where(sql`${t.deletedAt} is null`),
  index('pages_published_idx').on(t.projectId, t.publishedAt.desc(), t.id).where(publishedPage(t)),
  index('pages_published_asc_idx').on(t.projectId, t.publishedAt.asc().nullsLast(), t.id).where(publishedPage(t)),
  index('pages_created_idx').on(t.projectId, t.createdAt, t.id).where(publishedPage(t)),
  index('pages_updated_idx').on(t.projectId, t.updatedAt, t.id).where(publishedPage(t)),
  index('pages_name_idx').on(t.projectId, t.name, t.id).where(publishedPage(t)),
  index('pages_type_published_idx').on(t.projectId, t.pageTypeId, t.publishedAt.desc(), t.id).where(publishedPage(t)),
  index('pages_type_published_asc_idx').on(t.projectId, t.pageTypeId, t.publishedAt.asc().nullsLast(), t.id).where(publishedPage(t)),
  index('pages_type_created_idx').on(t.projectId, t.pageTypeId, t.createdAt, t.id).where(publishedPage(t)),
  index('pages_type_updated_idx').on(t.projectId, t.pageTypeId, t.updatedAt, t.id).where(publishedPage(t)),
  index('pages_type_name_idx').on(t.projectId, t.pageTypeId, t.name, t.id).where(publishedPage(t)),
  index('pages_type_slug_idx').on(t.projectId, t.pageTypeId, t.slug, t.id).where(publishedPage(t)),
  index('pages_scheduled_idx').on(t.publishAt).where(sql`${t.publishAt} is not null and ${t.deletedAt} is null`),
  index('pages_unpublish_scheduled_idx').on(t.unpublishAt).where(sql`${t.unpublishAt} is not null and ${t.deletedAt} is null`),
]);

export const pageSlugHistory = pgTable('page_slug_history', {
  id: id(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  pageId: uuid('page_id').notNull().references(() => pages.id, { onDelete: 'cascade' }),
  slug: text('slug').notNull(),
  createdAt: createdAt(),
}, (t) => [index('page_slug_history_lookup_idx').on(t.projectId, t.slug)]);

export const pageVersions = pgTable('page_versions', {
  id: id(),
  pageId: uuid('page_id').notNull().references(() => pages.id, { onDelete: 'cascade' }),
  version: integer('version').notNull(),
  status: text('status').notNull(),
  snapshot: jsonb('snapshot').$type<EntrySnapshot>().notNull(),
  createdBy: text('created_by'),
  createdAt: createdAt(),
}, (t) => [index('page_versions_page_idx').on(t.pageId, t.version)]);

export const collectionItems = pgTable('collection_items', {
  id: id(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  collectionTypeId: uuid('collection_type_id').notNull().references(() => collectionTypes.id),
  name: text('name').notNull(),
  slug: text('slug').notNull(),
  status: text('status').notNull().default('draft'),
  draftContent: jsonb('draft_content').$type<ContentValues>().notNull().default({}),
  publishedContent: jsonb('published_content').$type<ContentValues>(),
  draftLocales: jsonb('draft_locales').$type<LocaleValues>().notNull().default({}),
  publishedLocales: jsonb('published_locales').$type<LocaleValues>(),
  /** Authored order, the `_sortOrder` sort key of collection lists. */
  sortOrder: integer('sort_order').notNull().default(0),
  version: integer('version').notNull().default(1),
  publishedAt: ts('published_at'),
  publishAt: ts('publish_at'),
  /** When the scheduler unpublishes the entry (null: not scheduled). */
  unpublishAt: ts('unpublish_at'),
  createdBy: text('created_by'),
  updatedBy: text('updated_by'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  deletedAt: ts('deleted_at'),
}, (t) => [
  // As for pages, per collection type: the live-slug index serves the slug order, the sort-order
  // index (drafts too, for previews) the authored order.
  uniqueIndex('items_type_slug_live_uq').on(t.collectionTypeId, t.slug).where(sql`${t.deletedAt} is null`),
  index('items_published_idx').on(t.collectionTypeId, t.publishedAt.desc(), t.id).where(publishedItem(t)),
  index('items_published_asc_idx').on(t.collectionTypeId, t.publishedAt.asc().nullsLast(), t.id).where(publishedItem(t)),
  index('items_created_idx').on(t.collectionTypeId, t.createdAt, t.id).where(publishedItem(t)),
  index('items_updated_idx').on(t.collectionTypeId, t.updatedAt, t.id).where(publishedItem(t)),
  index('items_name_idx').on(t.collectionTypeId, t.name, t.id).where(publishedItem(t)),
  index('items_sort_order_idx').on(t.collectionTypeId, t.sortOrder).where(sql`${t.deletedAt} is null`),
  index('items_published_content_gin').using('gin', t.publishedContent.op('jsonb_path_ops')),
  index('items_scheduled_idx').on(t.publishAt).where(sql`${t.publishAt} is not null and ${t.deletedAt} is null`),
  index('items_unpublish_scheduled_idx').on(t.unpublishAt).where(sql`${t.unpublishAt} is not null and ${t.deletedAt} is null`),
]);

export const itemSlugHistory = pgTable('item_slug_history', {
  id: id(),
  collectionTypeId: uuid('collection_type_id').notNull().references(() => collectionTypes.id, { onDelete: 'cascade' }),
  itemId: uuid('item_id').notNull().references(() => collectionItems.id, { onDelete: 'cascade' }),
  slug: text('slug').notNull(),
  createdAt: createdAt(),
}, (t) => [index('item_slug_history_lookup_idx').on(t.collectionTypeId, t.slug)]);

export const itemVersions = pgTable('item_versions', {
  id: id(),
  itemId: uuid('item_id').notNull().references(() => collectionItems.id, { onDelete: 'cascade' }),
  version: integer('version').notNull(),
  status: text('status').notNull(),
  snapshot: jsonb('snapshot').$type<EntrySnapshot>().notNull(),
  createdBy: text('created_by'),
  createdAt: createdAt(),
}, (t) => [index('item_versions_item_idx').on(t.itemId, t.version)]);

