import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './common.js';
import { projects } from './projects.js';
import { media } from './media.js';

export const blogAuthors = pgTable('blog_authors', {
  id: id(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  slug: text('slug').notNull(),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  email: text('email'),
  bio: text('bio').notNull().default(''),
  title: text('title').notNull().default(''),
  profileImageId: uuid('profile_image_id').references(() => media.id, { onDelete: 'set null' }),
  links: jsonb('links').$type<Record<string, string>>().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [uniqueIndex('blog_authors_slug_uq').on(t.projectId, t.slug), index('blog_authors_email_idx').on(t.projectId, t.email)]);

export const blogCategories = pgTable('blog_categories', {
  id: id(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  slug: text('slug').notNull(),
  name: text('name').notNull(),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('blog_categories_slug_uq').on(t.projectId, t.slug)]);

export const blogTags = pgTable('blog_tags', {
  id: id(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  slug: text('slug').notNull(),
  name: text('name').notNull(),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('blog_tags_slug_uq').on(t.projectId, t.slug)]);

export const blogPosts = pgTable('blog_posts', {
  id: id(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  slug: text('slug').notNull(),
  title: text('title').notNull(),
  body: text('body').notNull().default(''),
  summary: text('summary').notNull().default(''),
  status: text('status').notNull().default('draft'),
  authorId: uuid('author_id').references(() => blogAuthors.id, { onDelete: 'set null' }),
  featuredImageId: uuid('featured_image_id').references(() => media.id, { onDelete: 'set null' }),
  seo: jsonb('seo').$type<Record<string, unknown>>().notNull().default({}),
  /**
   * A post's title, summary, body and SEO in the project's other locales, by code:
   * `{ "fr": { "title": "…", "seo": { … } } }` (the default locale's are the columns above).
   */
  locales: jsonb('locales').$type<Record<string, Record<string, unknown>>>().notNull().default({}),
  publishedAt: ts('published_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  deletedAt: ts('deleted_at'),
}, (t) => [
  uniqueIndex('blog_posts_slug_live_uq').on(t.projectId, t.slug).where(sql`${t.deletedAt} is null`),
  index('blog_posts_published_idx').on(t.projectId, t.publishedAt.desc()).where(sql`${t.deletedAt} is null and ${t.status} = 'published'`),
]);

export const blogPostCategories = pgTable('blog_post_categories', {
  postId: uuid('post_id').notNull().references(() => blogPosts.id, { onDelete: 'cascade' }),
  categoryId: uuid('category_id').notNull().references(() => blogCategories.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.postId, t.categoryId] }), index('blog_post_categories_cat_idx').on(t.categoryId)]);

export const blogPostTags = pgTable('blog_post_tags', {
  postId: uuid('post_id').notNull().references(() => blogPosts.id, { onDelete: 'cascade' }),
  tagId: uuid('tag_id').notNull().references(() => blogTags.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.postId, t.tagId] }), index('blog_post_tags_tag_idx').on(t.tagId)]);
