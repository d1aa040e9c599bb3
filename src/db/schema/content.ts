import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './common.js';
import { projects, users } from './projects.js';
import { collectionTypes, pageTypes } from './types.js';

export type ContentValues = Record<string, unknown>;
export type SeoValues = Record<string, unknown>;

/** What a version snapshot keeps: enough to restore the entry as it was. */
export interface EntrySnapshot {
  name: string;
  slug: string;
  status: string;
  draftContent: ContentValues;
  publishedContent: ContentValues | null;
  seo?: SeoValues;
  publishedSeo?: SeoValues | null;
}

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
  version: integer('version').notNull().default(1),
  publishedAt: ts('published_at'),
  publishAt: ts('publish_at'),
  createdBy: text('created_by'),
  updatedBy: text('updated_by'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  deletedAt: ts('deleted_at'),
}, (t) => [
  // Public lists end their order with the id (a stable order for pages of equal keys); the
  // indexes of the usual orders end with it too, so a page of 20 is read straight off the index.
  uniqueIndex('pages_project_slug_live_uq').on(t.projectId, t.slug).where(sql`${t.deletedAt} is null`),
  index('pages_published_idx').on(t.projectId, t.publishedAt.desc(), t.id).where(sql`${t.deletedAt} is null and ${t.status} = 'published'`),
  index('pages_type_published_idx').on(t.projectId, t.pageTypeId, t.publishedAt.desc(), t.id).where(sql`${t.deletedAt} is null and ${t.status} = 'published'`),
  index('pages_scheduled_idx').on(t.publishAt).where(sql`${t.publishAt} is not null and ${t.deletedAt} is null`),
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
  /** Authored order, the `_sortOrder` sort key of collection lists. */
  sortOrder: integer('sort_order').notNull().default(0),
  version: integer('version').notNull().default(1),
  publishedAt: ts('published_at'),
  publishAt: ts('publish_at'),
  createdBy: text('created_by'),
  updatedBy: text('updated_by'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  deletedAt: ts('deleted_at'),
}, (t) => [
  uniqueIndex('items_type_slug_live_uq').on(t.collectionTypeId, t.slug).where(sql`${t.deletedAt} is null`),
  index('items_published_idx').on(t.collectionTypeId, t.publishedAt.desc(), t.id).where(sql`${t.deletedAt} is null and ${t.status} = 'published'`),
  index('items_name_idx').on(t.collectionTypeId, t.name, t.id).where(sql`${t.deletedAt} is null and ${t.status} = 'published'`),
  index('items_sort_order_idx').on(t.collectionTypeId, t.sortOrder).where(sql`${t.deletedAt} is null`),
  index('items_published_content_gin').using('gin', t.publishedContent.op('jsonb_path_ops')),
  index('items_scheduled_idx').on(t.publishAt).where(sql`${t.publishAt} is not null and ${t.deletedAt} is null`),
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

