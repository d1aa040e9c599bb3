import { and, count, eq, exists, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { blogAuthors, blogCategories, blogPostCategories, blogPosts, blogPostTags, blogTags } from '../../db/schema/index.js';
import type { Ctx } from '../context.js';
import type { PostRow } from './store.js';

export const postSortFields = ['createdAt', 'updatedAt', 'publishedAt', 'title', 'slug'] as const;

export interface PostQuery {
  /** Drafts too (preview, admin); otherwise published posts only. */
  drafts: boolean;
  status?: 'draft' | 'published' | undefined;
  /** Slugs; a post matches when it has any of them. */
  categories?: string[] | undefined;
  tags?: string[] | undefined;
  authors?: string[] | undefined;
  search?: string | undefined;
  sort: Array<{ field: string; desc: boolean }>;
  /**
   * A public read's locale, for sorting by title: the locales a title is looked for in, in
   * order (the default's is the column), and the default's code.
   */
  titleChain?: { chain: string[]; defaultLocale: string } | undefined;
  page: number;
  limit: number;
}

const sortColumn: Record<string, SQL> = {
  createdAt: sql`${blogPosts.createdAt}`,
  updatedAt: sql`${blogPosts.updatedAt}`,
  publishedAt: sql`${blogPosts.publishedAt}`,
  title: sql`${blogPosts.title}`,
  slug: sql`${blogPosts.slug}`,
};

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page of posts and the total across pages, in two queries. */
export async function queryPosts(ctx: Pick<Ctx, 'db' | 'project'>, q: PostQuery): Promise<{ rows: PostRow[]; total: number }> {
  const where: Array<SQL | undefined> = [eq(blogPosts.projectId, ctx.project.id), isNull(blogPosts.deletedAt)];
  if (!q.drafts) where.push(eq(blogPosts.status, 'published'));
  if (q.status) where.push(eq(blogPosts.status, q.status));
  if (q.categories?.length) {
    where.push(exists(ctx.db.select({ one: sql`1` }).from(blogPostCategories)
      .innerJoin(blogCategories, eq(blogCategories.id, blogPostCategories.categoryId))
      .where(and(eq(blogPostCategories.postId, blogPosts.id), inArray(blogCategories.slug, q.categories)))));
  }
  if (q.tags?.length) {
    where.push(exists(ctx.db.select({ one: sql`1` }).from(blogPostTags)
      .innerJoin(blogTags, eq(blogTags.id, blogPostTags.tagId))
      .where(and(eq(blogPostTags.postId, blogPosts.id), inArray(blogTags.slug, q.tags)))));
  }
  if (q.authors?.length) {
    where.push(exists(ctx.db.select({ one: sql`1` }).from(blogAuthors)
      .where(and(eq(blogAuthors.id, blogPosts.authorId), inArray(blogAuthors.slug, q.authors)))));
  }
  if (q.search) {
    const like = `%${escapeLike(q.search)}%`;
    where.push(or(ilike(blogPosts.title, like), ilike(blogPosts.slug, like)));
  }
  const condition = and(...where);
  const column = (field: string): SQL => {
    const chain = q.titleChain;
    if (field !== 'title' || !chain) return sortColumn[field]!;
    // The title of the locale: its own, else its fallbacks', else the default's (codes bound).
    const titles = chain.chain.map((code) => (code === chain.defaultLocale ? sql`${blogPosts.title}` : sql`(${blogPosts.locales} -> ${code}::text ->> 'title')`));
    return sql`coalesce(${sql.join(titles, sql`, `)})`;
  };
  const order = q.sort.map(({ field, desc }) => (desc ? sql`${column(field)} desc nulls last` : sql`${column(field)} asc nulls last`));
  order.push(sql`${blogPosts.id} asc`);
  const [rows, totals] = await Promise.all([
    ctx.db.select().from(blogPosts).where(condition).orderBy(...order).limit(q.limit).offset((q.page - 1) * q.limit),
    ctx.db.select({ n: count() }).from(blogPosts).where(condition),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** `a,b` → ['a', 'b']; empty → undefined. */
export const slugList = (raw: string | undefined): string[] | undefined => {
  const list = (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return list.length ? list : undefined;
};
