import { iso } from '../../lib/iso.js';
import { isMultilingual } from '../locales/model.js';
import { seoKeys } from '../content/shapes.js';
import type { Ctx } from '../context.js';
import type { FieldSelection } from '../content/query.js';
import { deliverMedia, type AuthorRow, type MediaMode, type PostRelations, type PostRow, type TermRow } from './store.js';

type ShapeCtx = Pick<Ctx, 'settings' | 'project'>;

export const toTermShape = (row: TermRow) => ({ id: row.id, slug: row.slug, name: row.name });

/** An author as the admin API shows it (email included). */
export const toAuthorShape = (row: AuthorRow) => ({
  id: row.id,
  slug: row.slug,
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
  bio: row.bio,
  title: row.title,
  profileImageId: row.profileImageId,
  links: row.links,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** An author as the public API shows it: no email; the picture resolved. */
export const toPublicAuthor = (ctx: ShapeCtx, row: AuthorRow, media: PostRelations['media'], mode: MediaMode) => ({
  id: row.id,
  slug: row.slug,
  firstName: row.firstName,
  lastName: row.lastName,
  title: row.title,
  bio: row.bio,
  profileImage: deliverMedia(ctx, media, row.profileImageId, mode),
  links: row.links,
});

/** A post as the admin API and the CLI show it: what was written, plus its featured image resolved. */
export function toPostShape(ctx: ShapeCtx, row: PostRow, rel: PostRelations) {
  const author = row.authorId ? rel.authors.get(row.authorId) : undefined;
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    status: row.status,
    summary: row.summary,
    body: row.body,
    publishedAt: iso(row.publishedAt),
    featuredImageId: row.featuredImageId,
    featuredImage: deliverMedia(ctx, rel.media, row.featuredImageId, 'object'),
    author: author ? { id: author.id, slug: author.slug, firstName: author.firstName, lastName: author.lastName } : null,
    categories: (rel.categories.get(row.id) ?? []).map(toTermShape),
    tags: (rel.tags.get(row.id) ?? []).map(toTermShape),
    seo: row.seo,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    // Projects with several locales: the other locales' title, summary, body and SEO, by code.
    ...(isMultilingual(ctx.project.locales) ? { locales: row.locales } : {}),
  };
}

/**
 * Always delivered, whatever `fields` asks for (like pages' id, name, slug, seo and dates), and
 * `featuredImage` ("always delivered as a resolved media object", says the contract).
 */
export const alwaysDelivered = new Set(['id', 'title', 'slug', 'seo', 'publishedAt', 'updatedAt', 'featuredImage']);

/** A post as the public API delivers it; `fields` picks among the other members. */
export function toPublicPost(ctx: ShapeCtx, row: PostRow, rel: PostRelations, options: { media: MediaMode; fields: FieldSelection }) {
  const author = row.authorId ? rel.authors.get(row.authorId) : undefined;
  const seo: Record<string, unknown> = {};
  for (const k of seoKeys) {
    if (k === 'ogImageId') seo.ogImage = deliverMedia(ctx, rel.media, row.seo.ogImageId, options.media);
    else seo[k] = row.seo[k] ?? null;
  }
  const full: Record<string, unknown> = {
    id: row.id,
    title: row.title,
    slug: row.slug,
    status: row.status,
    summary: row.summary,
    body: row.body,
    featuredImageId: row.featuredImageId,
    featuredImage: deliverMedia(ctx, rel.media, row.featuredImageId, options.media),
    author: author ? toPublicAuthor(ctx, author, rel.media, options.media) : null,
    categories: (rel.categories.get(row.id) ?? []).map(toTermShape),
    tags: (rel.tags.get(row.id) ?? []).map(toTermShape),
    seo,
    publishedAt: iso(row.publishedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  const { include, exclude } = options.fields;
  if (!include && exclude.size === 0) return full;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(full)) {
    if (alwaysDelivered.has(k) || (include ? include.has(k) : !exclude.has(k))) out[k] = v;
  }
  return out;
}
