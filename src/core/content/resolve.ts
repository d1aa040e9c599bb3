import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { blogPosts, collectionItems, collectionTypes, memberships, pages, pageTypes, users, type LocaleValues } from '../../db/schema/index.js';
import { iso } from '../../lib/iso.js';
import { loadMedia, mediaFileUrl, toResolvedMedia } from '../media/resolve.js';
import { localizedFieldNames } from '../locales/model.js';
import { storedFields } from '../schema/index.js';
import { localize, type LocaleRead } from './localize.js';

export interface ResolveOptions {
  /** Drafts (preview): referenced entries show their latest draft, unpublished ones included. */
  drafts: boolean;
  media: 'object' | 'url';
  refTypes: boolean;
  baseUrl: string;
  projectId: string;
  projectSlug: string;
  /** With a `locale`: referenced collection items are read in it too (their localized fields resolved, or every locale's for `*`). */
  locale?: LocaleRead | null;
}

type Json = unknown;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const refTypes = ['collectionItem', 'page', 'user', 'blogPost'] as const;
type RefType = (typeof refTypes)[number];

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function mediaRefOf(v: Record<string, unknown>): string | null {
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0] === '_media' && typeof v._media === 'string' && uuidPattern.test(v._media) ? v._media.toLowerCase() : null;
}

function refOf(v: Record<string, unknown>): { id: string; type: RefType } | null {
  const keys = Object.keys(v);
  if (keys.length !== 2 || typeof v._ref !== 'string' || typeof v._type !== 'string') return null;
  const type = refTypes.find((t) => t === v._type);
  if (!type || !uuidPattern.test(v._ref)) return null;
  return { id: v._ref.toLowerCase(), type };
}

function collect(value: Json, media: Set<string>, refs: Map<RefType, Set<string>> | null): void {
  if (Array.isArray(value)) { for (const v of value) collect(v, media, refs); return; }
  if (!isPlainObject(value)) return;
  const m = mediaRefOf(value);
  if (m) { media.add(m); return; }
  const r = refs ? refOf(value) : null;
  if (r) { refs!.get(r.type)!.add(r.id); return; }
  for (const v of Object.values(value)) collect(v, media, refs);
}

export interface Resolver {
  /** Returns the delivered form of stored content: `{ _media }` and `{ _ref, _type }` resolved. */
  content(value: Record<string, unknown>): Record<string, unknown>;
  /** A media id (e.g. `seo.ogImageId`) as a delivered media object, URL string, or null. */
  mediaById(id: unknown): unknown;
}

/**
 * Resolves everything a batch of documents points at with a fixed number of queries: one per
 * reference kind, then one for all media (also the media inside referenced items).
 */
export async function createResolver(db: Db, docs: Array<Record<string, unknown>>, extraMediaIds: unknown[], opts: ResolveOptions): Promise<Resolver> {
  const mediaIds = new Set(extraMediaIds.filter((id): id is string => typeof id === 'string' && uuidPattern.test(id)).map((id) => id.toLowerCase()));
  const refs = new Map<RefType, Set<string>>(refTypes.map((t) => [t, new Set<string>()]));
  for (const d of docs) collect(d, mediaIds, refs);

  const resolvedRefs = new Map<string, Record<string, unknown>>();
  const itemIds = [...refs.get('collectionItem')!];
  const itemContents: Array<Record<string, unknown>> = [];
  const locale = opts.locale ?? null;
  const localizedByType = new Map<string, ReadonlySet<string>>();
  // In a locale, an item's content is the locale's: its other locales' values and its type's
  // localized fields are read beside it (and only then).
  const inLocale = (r: { type: string; content: Record<string, unknown>; locales?: LocaleValues | null; typeFields?: unknown }): Record<string, unknown> => {
    if (!locale) return r.content;
    if (!localizedByType.has(r.type)) localizedByType.set(r.type, localizedFieldNames(storedFields(Array.isArray(r.typeFields) ? r.typeFields : [])));
    return localize(locale, r.content, r.locales, localizedByType.get(r.type)!).values;
  };
  await Promise.all([
    itemIds.length && db.select({
      id: collectionItems.id, name: collectionItems.name, slug: collectionItems.slug, type: collectionTypes.slug,
      // Only the content of the mode asked for: the other one would be read and parsed for nothing.
      content: opts.drafts ? collectionItems.draftContent : collectionItems.publishedContent, status: collectionItems.status,
      projectId: collectionItems.projectId, deletedAt: collectionItems.deletedAt,
      ...(locale ? { locales: opts.drafts ? collectionItems.draftLocales : collectionItems.publishedLocales, typeFields: collectionTypes.fields } : {}),
    }).from(collectionItems).innerJoin(collectionTypes, eq(collectionTypes.id, collectionItems.collectionTypeId))
      // By primary key only, the other conditions checked below: without statistics (PGlite never
      // gathers any by itself) the planner would otherwise AND a whole partial index into it.
      .where(inArray(collectionItems.id, itemIds))
      .then((rows) => {
        for (const r of rows) {
          if (r.projectId !== opts.projectId || r.deletedAt !== null) continue;
          const stored = opts.drafts ? r.content : r.status === 'published' ? r.content : null;
          if (!stored) continue;
          const content = inLocale({ ...r, content: stored });
          itemContents.push(content);
          resolvedRefs.set(`collectionItem:${r.id}`, { _type: r.type, id: r.id, name: r.name, slug: r.slug, ...content });
        }
      }),
    refs.get('page')!.size && db.select({
      id: pages.id, name: pages.name, slug: pages.slug, type: pageTypes.slug, status: pages.status, publishedAt: pages.publishedAt,
      projectId: pages.projectId, deletedAt: pages.deletedAt,
    }).from(pages).innerJoin(pageTypes, eq(pageTypes.id, pages.pageTypeId))
      .where(inArray(pages.id, [...refs.get('page')!]))
      .then((rows) => {
        for (const r of rows) {
          if (r.projectId !== opts.projectId || r.deletedAt !== null) continue;
          if (!opts.drafts && r.status !== 'published') continue;
          resolvedRefs.set(`page:${r.id}`, { _type: 'page', id: r.id, name: r.name, slug: r.slug, type: r.type, publishedAt: iso(r.publishedAt) });
        }
      }),
    refs.get('blogPost')!.size && db.select({ id: blogPosts.id, title: blogPosts.title, slug: blogPosts.slug, status: blogPosts.status, publishedAt: blogPosts.publishedAt })
      .from(blogPosts)
      .where(and(eq(blogPosts.projectId, opts.projectId), isNull(blogPosts.deletedAt), inArray(blogPosts.id, [...refs.get('blogPost')!])))
      .then((rows) => {
        for (const r of rows) {
          if (!opts.drafts && r.status !== 'published') continue;
          resolvedRefs.set(`blogPost:${r.id}`, { _type: 'blogPost', id: r.id, title: r.title, slug: r.slug, publishedAt: iso(r.publishedAt) });
        }
      }),
    refs.get('user')!.size && db.select({ id: users.id, name: users.name }).from(users)
      .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.projectId, opts.projectId)))
      .where(inArray(users.id, [...refs.get('user')!]))
      .then((rows) => { for (const r of rows) resolvedRefs.set(`user:${r.id}`, { _type: 'user', id: r.id, name: r.name }); }),
  ]);
  // Media inside referenced items is delivered resolved too; their own references stay as stored.
  for (const c of itemContents) collect(c, mediaIds, null);
  const mediaRows = await loadMedia(db, opts.projectId, [...mediaIds]);

  const deliverMedia = (id: string): unknown => {
    const row = mediaRows.get(id);
    if (!row) return null;
    return opts.media === 'url' ? mediaFileUrl(opts.baseUrl, opts.projectSlug, row.filename) : toResolvedMedia(row, opts.baseUrl, opts.projectSlug);
  };

  const replaceMedia = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(replaceMedia);
    if (!isPlainObject(value)) return value;
    const m = mediaRefOf(value);
    if (m) return deliverMedia(m);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = replaceMedia(v);
    return out;
  };

  const replace = (value: Json): Json => {
    if (Array.isArray(value)) {
      return value.map(replace).filter((v, i) => {
        const original: unknown = value[i];
        return v !== null || !isPlainObject(original) || !refOf(original);
      });
    }
    if (!isPlainObject(value)) return value;
    const m = mediaRefOf(value);
    if (m) return deliverMedia(m);
    const r = refOf(value);
    if (r) {
      const target = resolvedRefs.get(`${r.type}:${r.id}`);
      if (!target) return null;
      if (r.type !== 'collectionItem') return target;
      const resolved = replaceMedia(target);
      if (!opts.refTypes && isPlainObject(resolved)) {
        const { _type: _omit, ...rest } = resolved;
        return rest;
      }
      return resolved;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = replace(v);
    return out;
  };

  return {
    // Field names never start with an underscore, so the top level is never a reference or media itself.
    content: (value) => { const out = replace(value); return isPlainObject(out) ? out : {}; },
    mediaById: (id) => (typeof id === 'string' && uuidPattern.test(id) ? deliverMedia(id.toLowerCase()) : null),
  };
}
