import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../lib/rows.js';

export interface MediaReferrer {
  id: string;
  slug: string;
  type: 'page' | 'collectionItem' | 'blogPost' | 'blogAuthor';
}

/**
 * Content that is not deleted (drafts included) and names the media id anywhere: as a bare id,
 * `{ id }` or `{ _media }` in content, an SEO `ogImageId`, a blog post's featured image or body, or
 * an author's picture. A UUID is unique enough that finding its text is an exact test.
 */
export async function findMediaReferrers(db: Db, projectId: string, mediaId: string, limit = 50): Promise<MediaReferrer[]> {
  const id = mediaId.toLowerCase();
  // Column names are fixed here; only the id is a (bound) parameter.
  const names = (column: string) => sql`strpos(lower(coalesce(${sql.raw(column)}::text, '')), ${id}) > 0`;
  const result = await db.execute(sql`
    select id::text as id, slug, 'page' as type from pages
      where project_id = ${projectId} and deleted_at is null
        and (${names('draft_content')} or ${names('published_content')} or ${names('seo')} or ${names('published_seo')})
    union all
    select id::text, slug, 'collectionItem' from collection_items
      where project_id = ${projectId} and deleted_at is null
        and (${names('draft_content')} or ${names('published_content')})
    union all
    select id::text, slug, 'blogPost' from blog_posts
      where project_id = ${projectId} and deleted_at is null
        and (featured_image_id = ${id}::uuid or ${names('body')} or ${names('seo')})
    union all
    select id::text, slug, 'blogAuthor' from blog_authors
      where project_id = ${projectId} and profile_image_id = ${id}::uuid
    limit ${limit}
  `);
  return rowsOf<MediaReferrer>(result);
}
