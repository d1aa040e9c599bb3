import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { blogPosts, collectionItems, collectionTypes, components as componentTypes, media, memberships, pages, pageTypes, users } from '../../db/schema/index.js';
import { componentFieldTypes } from '../schema/fields.js';
import { holdReferenced } from '../reference-locks.js';
import { storedFields, type ContentLookups, type ContentTarget, type MediaInfo, type SchemaField, type TypeDefinition } from '../schema/index.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Only well-formed UUIDs reach a uuid column; anything else simply does not exist. */
const onlyUuids = (ids: string[]) => [...new Set(ids.filter((id) => uuidPattern.test(id)).map((id) => id.toLowerCase()))];

/**
 * The project's components, read only when `fields` embed components (a repeater may not hold
 * them, so the top level says it all): a type without them validates without this query.
 */
async function componentsFor(db: Db, projectId: string, fields: readonly SchemaField[]): Promise<Map<string, TypeDefinition>> {
  if (!fields.some((f) => componentFieldTypes.includes(f.type))) return new Map();
  const rows = await db.select({ slug: componentTypes.slug, name: componentTypes.name, fields: componentTypes.fields })
    .from(componentTypes).where(eq(componentTypes.projectId, projectId));
  return new Map(rows.map((r) => [r.slug, { slug: r.slug, name: r.name, fields: storedFields(r.fields) }]));
}

/**
 * Existence checks for content validation of a document of `fields`: one query per target,
 * whatever the document holds.
 */
export async function createContentLookups(db: Db, projectId: string, fields: readonly SchemaField[]): Promise<ContentLookups> {
  const components = await componentsFor(db, projectId, fields);
  return {
    component: (slug) => components.get(slug),
    async existingIds(target: ContentTarget, ids: string[]) {
      const wanted = onlyUuids(ids);
      if (wanted.length === 0) return new Set();
      // Users are members, not things a delete refuses while named. The lock goes out first, and
      // the lookup behind it, started at once (`.execute()`): one round trip.
      const held = target.kind === 'user' ? Promise.resolve() : holdReferenced(db, wanted);
      let lookup: Promise<Array<{ id: string }>>;
      switch (target.kind) {
        case 'page':
          lookup = db.select({ id: pages.id }).from(pages)
            .innerJoin(pageTypes, eq(pageTypes.id, pages.pageTypeId))
            .where(and(eq(pages.projectId, projectId), isNull(pages.deletedAt), inArray(pages.id, wanted),
              target.pageType ? eq(pageTypes.slug, target.pageType) : undefined)).execute();
          break;
        case 'collectionItem':
          lookup = db.select({ id: collectionItems.id }).from(collectionItems)
            .innerJoin(collectionTypes, eq(collectionTypes.id, collectionItems.collectionTypeId))
            .where(and(eq(collectionItems.projectId, projectId), isNull(collectionItems.deletedAt), inArray(collectionItems.id, wanted),
              eq(collectionTypes.slug, target.collectionType))).execute();
          break;
        case 'user':
          lookup = db.select({ id: users.id }).from(users)
            .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.projectId, projectId)))
            .where(inArray(users.id, wanted)).execute();
          break;
        case 'blogPost':
          lookup = db.select({ id: blogPosts.id }).from(blogPosts)
            .where(and(eq(blogPosts.projectId, projectId), isNull(blogPosts.deletedAt), inArray(blogPosts.id, wanted))).execute();
          break;
        case 'media':
          lookup = db.select({ id: media.id }).from(media)
            .where(and(eq(media.projectId, projectId), isNull(media.deletedAt), inArray(media.id, wanted))).execute();
          break;
      }
      const [, rows] = await Promise.all([held, lookup]);
      // Answer in the caller's spelling, so a mixed-case id that exists counts as existing.
      const found = new Set(rows.map((r) => r.id.toLowerCase()));
      return new Set(ids.filter((id) => found.has(id.toLowerCase())));
    },
    async media(ids: string[]) {
      const wanted = onlyUuids(ids);
      const out = new Map<string, MediaInfo>();
      if (wanted.length === 0) return out;
      const held = holdReferenced(db, wanted);
      const [, rows] = await Promise.all([held, db.select({ id: media.id, mimeType: media.mimeType, size: media.size }).from(media)
        .where(and(eq(media.projectId, projectId), isNull(media.deletedAt), inArray(media.id, wanted))).execute()]);
      const byId = new Map(rows.map((r) => [r.id.toLowerCase(), r]));
      for (const id of ids) {
        const r = byId.get(id.toLowerCase());
        if (r) out.set(id, { mimeType: r.mimeType, size: r.size });
      }
      return out;
    },
  };
}
