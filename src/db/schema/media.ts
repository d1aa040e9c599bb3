import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './common.js';
import { projects } from './projects.js';

export const mediaFolders = pgTable('media_folders', {
  id: id(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('media_folders_name_uq').on(t.projectId, t.name)]);

export const media = pgTable('media', {
  id: id(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  /** The stored file name: the SHA-256 of the bytes plus an extension from the detected type. */
  filename: text('filename').notNull(),
  originalFilename: text('original_filename').notNull(),
  mimeType: text('mime_type').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  sha256: text('sha256').notNull(),
  width: integer('width'),
  height: integer('height'),
  altText: text('alt_text'),
  folder: text('folder'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  deletedAt: ts('deleted_at'),
}, (t) => [
  index('media_project_idx').on(t.projectId, t.createdAt.desc()).where(sql`${t.deletedAt} is null`),
  index('media_sha_idx').on(t.projectId, t.sha256),
  index('media_filename_idx').on(t.projectId, t.filename),
]);
