import { jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common.js';
import { projects } from './projects.js';

/** The stored field list; validated by core/schema before it is written. */
export type StoredFields = Array<{ name: string; type: string; [key: string]: unknown }>;

const typeColumns = () => ({
  id: id(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  slug: text('slug').notNull(),
  name: text('name').notNull(),
  fields: jsonb('fields').$type<StoredFields>().notNull().default([]),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const pageTypes = pgTable('page_types', typeColumns(), (t) => [
  uniqueIndex('page_types_project_slug_uq').on(t.projectId, t.slug),
]);

export const collectionTypes = pgTable('collection_types', typeColumns(), (t) => [
  uniqueIndex('collection_types_project_slug_uq').on(t.projectId, t.slug),
]);

export const components = pgTable('components', typeColumns(), (t) => [
  uniqueIndex('components_project_slug_uq').on(t.projectId, t.slug),
]);
