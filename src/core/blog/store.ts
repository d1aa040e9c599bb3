import { and, asc, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { blogAuthors, blogCategories, blogPostCategories, blogPosts, blogPostTags, blogTags } from '../../db/schema/index.js';
import type { Ctx } from '../context.js';
import { CmsError, type Issue } from '../errors.js';
import { holdReferenced } from '../reference-locks.js';
import { isUuid, loadMedia, toResolvedMedia, mediaFileUrl, type MediaRow, type ResolvedMedia } from '../media/resolve.js';

export type PostRow = typeof blogPosts.$inferSelect;
export type AuthorRow = typeof blogAuthors.$inferSelect;
export type TermRow = typeof blogCategories.$inferSelect;
export type TermKind = 'category' | 'tag';

export const termTable = (kind: TermKind) => (kind === 'category' ? blogCategories : blogTags);
export const termLabel = (kind: TermKind) => (kind === 'category' ? 'Blog category' : 'Blog tag');

/** An id when it looks like one, else a slug. */
const byIdOrSlug = (table: { id: typeof blogPosts.id; slug: typeof blogPosts.slug } | typeof blogAuthors | typeof blogCategories | typeof blogTags, ref: string): SQL =>
  (isUuid(ref) ? or(eq(table.id, ref.toLowerCase()), eq(table.slug, ref))! : eq(table.slug, ref));

export async function findPost(ctx: Pick<Ctx, 'db' | 'project'>, ref: string, lock = false): Promise<PostRow> {
  const q = ctx.db.select().from(blogPosts)
    .where(and(eq(blogPosts.projectId, ctx.project.id), isNull(blogPosts.deletedAt), byIdOrSlug(blogPosts, ref)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new CmsError('NOT_FOUND', `Blog post "${ref}" not found`);
  return row;
}

export async function findAuthor(ctx: Pick<Ctx, 'db' | 'project'>, ref: string): Promise<AuthorRow> {
  const [row] = await ctx.db.select().from(blogAuthors).where(and(eq(blogAuthors.projectId, ctx.project.id), byIdOrSlug(blogAuthors, ref)));
  if (!row) throw new CmsError('NOT_FOUND', `Blog author "${ref}" not found`);
  return row;
}

export async function findTerm(ctx: Pick<Ctx, 'db' | 'project'>, kind: TermKind, ref: string): Promise<TermRow> {
  const table = termTable(kind);
  const [row] = await ctx.db.select().from(table).where(and(eq(table.projectId, ctx.project.id), byIdOrSlug(table, ref)));
  if (!row) throw new CmsError('NOT_FOUND', `${termLabel(kind)} "${ref}" not found`);
  return row;
}

/**
 * The author, categories, tags and media a post write names (ids or slugs): everything is looked
 * up at once and every unknown one reported together, at its path. What is found is held until
 * the write commits, so that a delete running at the same time either waits for the post (and
 * then detaches it) or comes first (and the post is refused here): the author and the terms by a
 * row lock (FOR KEY SHARE, which only their deletes wait for), media by the lock every content
 * write takes (reference-locks.ts).
 */
export async function resolvePostRefs(ctx: Pick<Ctx, 'db' | 'project'>, input: {
  author?: string | null | undefined;
  categories?: string[] | undefined;
  tags?: string[] | undefined;
  featuredImageId?: string | null | undefined;
  ogImageId?: string | null | undefined;
}): Promise<{ authorId: string | null | undefined; categoryIds: string[] | undefined; tagIds: string[] | undefined }> {
  const issues: Issue[] = [];
  let authorId: string | null | undefined = input.author === null ? null : undefined;
  if (input.author) {
    const [row] = await ctx.db.select({ id: blogAuthors.id }).from(blogAuthors)
      .where(and(eq(blogAuthors.projectId, ctx.project.id), byIdOrSlug(blogAuthors, input.author))).for('key share');
    if (row) authorId = row.id;
    else issues.push({ path: 'author', message: `no author "${input.author}"` });
  }
  const terms = async (kind: TermKind, refs: string[] | undefined, path: string): Promise<string[] | undefined> => {
    if (!refs) return undefined;
    const table = termTable(kind);
    const unique = [...new Set(refs)];
    if (unique.length === 0) return [];
    const ids = unique.filter(isUuid).map((r) => r.toLowerCase());
    const rows = await ctx.db.select({ id: table.id, slug: table.slug }).from(table)
      .where(and(eq(table.projectId, ctx.project.id), or(inArray(table.slug, unique), ids.length ? inArray(table.id, ids) : undefined))).for('key share');
    const out: string[] = [];
    // Each ref once, at its first place in the list as sent (a repeat is no new problem).
    refs.forEach((ref, i) => {
      if (refs.indexOf(ref) !== i) return;
      const row = rows.find((r) => r.id === ref.toLowerCase()) ?? rows.find((r) => r.slug === ref);
      if (!row) issues.push({ path: `${path}[${i}]`, message: `no ${kind} "${ref}"` });
      else if (!out.includes(row.id)) out.push(row.id);
    });
    return out;
  };
  const categoryIds = await terms('category', input.categories, 'categories');
  const tagIds = await terms('tag', input.tags, 'tags');
  const mediaIds = [input.featuredImageId, input.ogImageId].filter((v): v is string => typeof v === 'string');
  if (mediaIds.length) {
    const held = holdReferenced(ctx.db, mediaIds.filter(isUuid));
    const [, found] = await Promise.all([held, loadMedia(ctx.db, ctx.project.id, mediaIds)]);
    if (input.featuredImageId && !found.has(input.featuredImageId.toLowerCase())) {
      issues.push({ path: 'featuredImageId', message: `media "${input.featuredImageId}" does not exist` });
    }
    if (input.ogImageId && !found.has(input.ogImageId.toLowerCase())) {
      issues.push({ path: 'seo.ogImageId', message: `media "${input.ogImageId}" does not exist` });
    }
  }
  if (issues.length) {
    throw new CmsError('VALIDATION_FAILED', `Validation failed: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
  }
  return { authorId, categoryIds, tagIds };
}

export async function setPostTerms(db: Db, postId: string, categoryIds: string[] | undefined, tagIds: string[] | undefined): Promise<void> {
  if (categoryIds) {
    await db.delete(blogPostCategories).where(eq(blogPostCategories.postId, postId));
    if (categoryIds.length) await db.insert(blogPostCategories).values(categoryIds.map((categoryId) => ({ postId, categoryId })));
  }
  if (tagIds) {
    await db.delete(blogPostTags).where(eq(blogPostTags.postId, postId));
    if (tagIds.length) await db.insert(blogPostTags).values(tagIds.map((tagId) => ({ postId, tagId })));
  }
}

/** Whatever a batch of posts shows besides itself, in a fixed number of queries. */
export interface PostRelations {
  authors: Map<string, AuthorRow>;
  categories: Map<string, TermRow[]>;
  tags: Map<string, TermRow[]>;
  media: Map<string, MediaRow>;
}

export async function loadPostRelations(ctx: Pick<Ctx, 'db' | 'project'>, posts: PostRow[]): Promise<PostRelations> {
  const ids = posts.map((p) => p.id);
  const authorIds = [...new Set(posts.map((p) => p.authorId).filter((v): v is string => !!v))];
  const [authors, categories, tags] = ids.length === 0 ? [[], [], []] : await Promise.all([
    authorIds.length ? ctx.db.select().from(blogAuthors).where(inArray(blogAuthors.id, authorIds)) : Promise.resolve([]),
    ctx.db.select({ postId: blogPostCategories.postId, term: blogCategories }).from(blogPostCategories)
      .innerJoin(blogCategories, eq(blogCategories.id, blogPostCategories.categoryId))
      .where(inArray(blogPostCategories.postId, ids)).orderBy(asc(blogCategories.name), asc(blogCategories.slug)),
    ctx.db.select({ postId: blogPostTags.postId, term: blogTags }).from(blogPostTags)
      .innerJoin(blogTags, eq(blogTags.id, blogPostTags.tagId))
      .where(inArray(blogPostTags.postId, ids)).orderBy(asc(blogTags.name), asc(blogTags.slug)),
  ]);
  const group = (rows: Array<{ postId: string; term: TermRow }>) => {
    const map = new Map<string, TermRow[]>();
    for (const r of rows) map.set(r.postId, [...(map.get(r.postId) ?? []), r.term]);
    return map;
  };
  const mediaIds = [
    ...posts.map((p) => p.featuredImageId),
    ...posts.map((p) => p.seo.ogImageId),
    ...authors.map((a) => a.profileImageId),
  ].filter((v): v is string => typeof v === 'string');
  return {
    authors: new Map(authors.map((a) => [a.id, a])),
    categories: group(categories),
    tags: group(tags),
    media: await loadMedia(ctx.db, ctx.project.id, mediaIds),
  };
}

export type MediaMode = 'object' | 'url';

/** A delivered media value: the resolved object, its URL in url mode, or null. */
export function deliverMedia(ctx: Pick<Ctx, 'settings' | 'project'>, media: Map<string, MediaRow>, id: unknown, mode: MediaMode): ResolvedMedia | string | null {
  if (typeof id !== 'string') return null;
  const row = media.get(id.toLowerCase());
  if (!row) return null;
  return mode === 'url'
    ? mediaFileUrl(ctx.settings.baseUrl, ctx.project.slug, row.filename)
    : toResolvedMedia(row, ctx.settings.baseUrl, ctx.project.slug);
}
