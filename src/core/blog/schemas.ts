import { z } from 'zod';
import { seoWriteSchema } from '../content/shapes.js';
import { slugPattern } from '../slug.js';

export const postStatuses = ['draft', 'published'] as const;
export type PostStatus = (typeof postStatuses)[number];

/** Post bodies are HTML, stored as given (not sanitised, like wysiwyg fields); 1 MB at most. */
export const maxBodyBytes = 1_048_576;

const slugMessage = 'must be lowercase letters, digits and single hyphens (like "my-post")';
export const blogSlug = z.string().min(1).max(255).regex(slugPattern, slugMessage);

/** A slug from a title or name: `Ça va, World!` → `ca-va-world`. */
export function slugify(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 200).replace(/-+$/, '');
}

/** An author, category or tag, named by its id or its slug. */
export const entityRef = z.string().trim().min(1).max(255);

// PostgreSQL keeps no year 0, and the drivers read the years 1–99 back as 19xx or 20xx (Date's
// legacy parsing of "0001-01-01 00:00:00+00"): a post's date falls in the years 1000–9999.
const isoDate = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time, like 2026-01-31T09:00:00Z' })
  .refine((v) => new Date(v).getUTCFullYear() >= 1000, 'must be in the year 1000 or later');

const postFields = {
  title: z.string().trim().min(1).max(255),
  slug: blogSlug,
  body: z.string(),
  summary: z.string().max(5000),
  publishedAt: isoDate.nullable(),
  featuredImageId: z.uuid('must be a media UUID').nullable(),
  author: entityRef.nullable(),
  categories: z.array(entityRef).max(100),
  tags: z.array(entityRef).max(100),
  seo: seoWriteSchema,
};

export const createPostInput = z.strictObject({
  title: postFields.title,
  slug: postFields.slug.optional(),
  body: postFields.body.optional(),
  summary: postFields.summary.optional(),
  status: z.enum(postStatuses).optional(),
  publishedAt: postFields.publishedAt.optional(),
  featuredImageId: postFields.featuredImageId.optional(),
  author: postFields.author.optional(),
  categories: postFields.categories.optional(),
  tags: postFields.tags.optional(),
  seo: postFields.seo.optional(),
  /** The locale title, summary, body and SEO are written in (the project's default when absent). */
  locale: z.string().optional(),
});

/** Only the members given change; `seo` is merged key by key (null clears a key). */
export const updatePostInput = z.strictObject({
  id: entityRef,
  title: postFields.title.optional(),
  slug: postFields.slug.optional(),
  body: postFields.body.optional(),
  summary: postFields.summary.optional(),
  publishedAt: postFields.publishedAt.optional(),
  featuredImageId: postFields.featuredImageId.optional(),
  author: postFields.author.optional(),
  categories: postFields.categories.optional(),
  tags: postFields.tags.optional(),
  seo: postFields.seo.optional(),
  locale: z.string().optional(),
});

export const authorFields = {
  slug: blogSlug,
  firstName: z.string().trim().max(255),
  lastName: z.string().trim().max(255),
  email: z.email().max(320).nullable(),
  bio: z.string().max(10_000),
  title: z.string().max(255),
  profileImageId: z.uuid('must be a media UUID').nullable(),
  links: z.record(z.string().min(1).max(50), z.string().max(2048)),
};

export const createAuthorInput = z.strictObject({
  slug: authorFields.slug.optional(),
  firstName: authorFields.firstName.optional(),
  lastName: authorFields.lastName.optional(),
  email: authorFields.email.optional(),
  bio: authorFields.bio.optional(),
  title: authorFields.title.optional(),
  profileImageId: authorFields.profileImageId.optional(),
  links: authorFields.links.optional(),
});

export const updateAuthorInput = createAuthorInput.extend({ id: entityRef });

export const createTermInput = z.strictObject({
  name: z.string().trim().min(1).max(255),
  slug: blogSlug.optional(),
});

export const updateTermInput = z.strictObject({
  id: entityRef,
  name: z.string().trim().min(1).max(255).optional(),
  slug: blogSlug.optional(),
});
