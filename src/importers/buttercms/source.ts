// Reads a whole ButterCMS account through the read API, discovering what the API cannot list
// (it has no endpoint that lists page types or collections): single pages, the configured page types and collections, the blog, and every
// page type and collection met inside content (page types of referenced pages, collection keys
// of `/v2/content/?keys=` reference URIs), until nothing new turns up.
//
// Pages and collections are read with `levels=1`: every reference then arrives as a reference URI
// that names its collection or page type, so each one can be told apart and followed. They are read
// with `alt_media_text=1` too, so that media fields bring their alt text (`{ url, alt }`);
// `liftMediaAltTexts` puts each back to its URL and keeps the alt texts aside.

import { canonicalJson } from '../../lib/canonical-json.js';
import { SourceRequestError, sourcePageSizes, type ButterClient } from './client.js';
import { isCollectionItemObject, isMediaWithAlt, isPageObject, isPlainObject, referenceTargetOf } from './infer.js';
import type { ImportWarning } from './types.js';

export interface SourcePage {
  slug: string;
  name: string;
  published: string | null;
  updated: string | null;
  page_type: string | null;
  /** `published`, `draft` or `scheduled` when the source says (newer API versions). */
  status: string | null;
  /** When a scheduled page is to go live (newer API versions). */
  scheduled: string | null;
  fields: Record<string, unknown>;
  /**
   * The source's draft of a published page, where it differs from what is published (read with
   * `preview=1`): imported as the entry's draft, beside its published content.
   */
  draftFields?: Record<string, unknown> | undefined;
}

/** A collection item as delivered: its fields at the top level plus `meta: { id }`. */
export type SourceItem = Record<string, unknown> & { meta: { id: number | string } };

export interface SourceAuthor {
  first_name: string;
  last_name: string;
  email: string;
  slug: string;
  bio: string;
  title: string;
  profile_image: string;
  links: Record<string, string>;
}

export interface SourceTerm {
  name: string;
  slug: string;
}

export interface SourcePost {
  slug: string;
  title: string;
  status: string;
  published: string | null;
  created: string | null;
  updated: string | null;
  /** When a scheduled post is to go live (newer API versions). */
  scheduled: string | null;
  body: string;
  summary: string;
  seo_title: string;
  meta_description: string;
  featured_image: string | null;
  featured_image_alt: string;
  author: SourceAuthor | null;
  categories: SourceTerm[];
  tags: SourceTerm[];
}

export interface Discovery {
  configured: string[];
  /** Met inside content and read too. */
  discovered: string[];
  /** Configured or met, but the source had none (404). */
  missing: string[];
}

export interface SourceData {
  /** Every page, single pages (page_type null) first, then by page type as read. */
  pages: SourcePage[];
  /** Items by source collection key, in source order. */
  collections: Map<string, SourceItem[]>;
  posts: SourcePost[];
  authors: SourceAuthor[];
  categories: SourceTerm[];
  tags: SourceTerm[];
  /** Whether posts, authors, categories and tags were read (else they are empty here). */
  blogRead: boolean;
  pageTypes: Discovery;
  collectionKeys: Discovery;
  /** Collection item ids referenced by embedded objects whose collection was never read. */
  unknownItemIds: string[];
  /**
   * Items the source has only as drafts (served with `preview=1` alone; they are in `collections`
   * too), and the drafts of published items that differ from what is published, by item id.
   */
  itemDrafts: { draftOnly: Set<string>; edits: Map<string, SourceItem> };
  warnings: ImportWarning[];
  /**
   * With `--locales`: the same pages and collections read in each other listed locale (the
   * lists above hold the first listed locale's values). Absent otherwise.
   */
  variants?: LocaleVariant[];
}

/** Pages and collection items as read in one more locale (`locale=<code>`). */
export interface LocaleVariant {
  code: string;
  pages: SourcePage[];
  collections: Map<string, SourceItem[]>;
}

export interface ReadProgress {
  /** Lists read so far, lists known so far (it grows as content reveals more). */
  done: number;
  total: number;
  requests: number;
}

export interface ReadSourceOptions {
  pageTypes?: readonly string[] | undefined;
  collections?: readonly string[] | undefined;
  /** After every answered page of results; may throw to stop (pause, shutdown). */
  onProgress?: (progress: ReadProgress) => Promise<void>;
  /** Read the blog too (default true); an import reads it later, when it gets to the blog. */
  blog?: boolean;
  /** Skip single pages (when only the blog is wanted). */
  skipPages?: boolean;
  /** ButterCMS's `locale` parameter on page and collection reads (absent: none is sent, the account's default is read). */
  locale?: string | undefined;
}

export interface BlogData {
  posts: SourcePost[];
  authors: SourceAuthor[];
  categories: SourceTerm[];
  tags: SourceTerm[];
  warnings: ImportWarning[];
}

const blogTasks = (): Task[] => [{ kind: 'posts' }, { kind: 'authors' }, { kind: 'categories' }, { kind: 'tags' }];

type Task =
  | { kind: 'singles' }
  | { kind: 'pageType'; type: string; origin: 'configured' | 'discovered' }
  | { kind: 'collection'; key: string; origin: 'configured' | 'discovered' }
  | { kind: 'posts' }
  | { kind: 'authors' }
  | { kind: 'categories' }
  | { kind: 'tags' };

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strOrNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

const authorLinkKeys = ['linkedin_url', 'facebook_url', 'instagram_url', 'pinterest_url', 'twitter_handle'] as const;

function toAuthor(v: unknown): SourceAuthor | null {
  if (!isPlainObject(v)) return null;
  const links: Record<string, string> = {};
  for (const k of authorLinkKeys) if (str(v[k])) links[k] = str(v[k]);
  return {
    first_name: str(v.first_name), last_name: str(v.last_name), email: str(v.email).trim(), slug: str(v.slug),
    bio: str(v.bio), title: str(v.title), profile_image: str(v.profile_image), links,
  };
}

function toTerms(v: unknown): SourceTerm[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isPlainObject).map((t) => ({ name: str(t.name) || str(t.slug), slug: str(t.slug) })).filter((t) => t.slug !== '');
}

function toPost(v: unknown): SourcePost | null {
  if (!isPlainObject(v) || typeof v.slug !== 'string' || v.slug === '') return null;
  return {
    slug: v.slug,
    title: str(v.title) || v.slug,
    status: str(v.status) || 'published',
    published: strOrNull(v.published),
    created: strOrNull(v.created),
    updated: strOrNull(v.updated),
    scheduled: strOrNull(v.scheduled),
    body: str(v.body),
    summary: str(v.summary),
    seo_title: str(v.seo_title),
    meta_description: str(v.meta_description),
    featured_image: strOrNull(v.featured_image),
    featured_image_alt: str(v.featured_image_alt),
    author: toAuthor(v.author),
    categories: toTerms(v.categories),
    tags: toTerms(v.tags),
  };
}

/** What a post says, without its status and times: a preview read's post differs from the published one when this does. */
const postContent = (post: SourcePost): string => canonicalJson({ ...post, status: null, created: null, updated: null, published: null, scheduled: null });

export function toPage(v: unknown): SourcePage | null {
  if (!isPlainObject(v) || typeof v.slug !== 'string' || v.slug === '') return null;
  return {
    slug: v.slug,
    name: str(v.name) || v.slug,
    published: strOrNull(v.published),
    updated: strOrNull(v.updated),
    page_type: typeof v.page_type === 'string' && v.page_type !== '' ? v.page_type : null,
    status: strOrNull(v.status),
    scheduled: strOrNull(v.scheduled),
    fields: isPlainObject(v.fields) ? v.fields : {},
  };
}

/** The query of every page and collection read (a locale is added where one is asked for). */
export const contentReadQuery: Readonly<Record<string, number>> = { levels: 1, alt_media_text: 1 };

export const dataArray = (body: unknown): unknown[] => (isPlainObject(body) && Array.isArray(body.data) ? body.data : []);

export const collectionArray = (key: string) => (body: unknown): unknown[] => {
  if (!isPlainObject(body) || !isPlainObject(body.data)) return [];
  const list = body.data[key];
  return Array.isArray(list) ? list : [];
};

/** Reads the account. Source requests happen here only; nothing is written. */
export async function readSource(client: ButterClient, options: ReadSourceOptions = {}): Promise<SourceData> {
  const warnings: ImportWarning[] = [];
  const data: SourceData = {
    pages: [],
    collections: new Map(),
    posts: [],
    authors: [],
    categories: [],
    tags: [],
    blogRead: options.blog !== false,
    pageTypes: { configured: [...new Set(options.pageTypes ?? [])], discovered: [], missing: [] },
    collectionKeys: { configured: [...new Set(options.collections ?? [])], discovered: [], missing: [] },
    unknownItemIds: [],
    itemDrafts: { draftOnly: new Set(), edits: new Map() },
    warnings,
  };
  const queue: Task[] = [
    ...(options.skipPages ? [] : [{ kind: 'singles' } satisfies Task]),
    ...data.pageTypes.configured.map((type): Task => ({ kind: 'pageType', type, origin: 'configured' })),
    ...data.collectionKeys.configured.map((key): Task => ({ kind: 'collection', key, origin: 'configured' })),
    ...(data.blogRead ? blogTasks() : []),
  ];
  const knownTypes = new Set(data.pageTypes.configured);
  const knownKeys = new Set(data.collectionKeys.configured);
  const embeddedItemIds = new Set<string>();
  let done = 0;
  const progress = async () => {
    await options.onProgress?.({ done, total: done + queue.length + 1, requests: client.requestCount });
  };

  // Follows what content points at: reference URIs name their collection or page type.
  const scan = (value: unknown): void => {
    if (typeof value === 'string') {
      const target = value.startsWith('/') || value.startsWith('http') ? referenceTargetOf(value) : null;
      if (target?.kind === 'collectionItem' && target.collection && !knownKeys.has(target.collection)) {
        knownKeys.add(target.collection);
        data.collectionKeys.discovered.push(target.collection);
        queue.push({ kind: 'collection', key: target.collection, origin: 'discovered' });
      } else if (target?.kind === 'page' && typeof target.pageType === 'string' && !knownTypes.has(target.pageType)) {
        knownTypes.add(target.pageType);
        data.pageTypes.discovered.push(target.pageType);
        queue.push({ kind: 'pageType', type: target.pageType, origin: 'discovered' });
      }
      return;
    }
    if (Array.isArray(value)) {
      value.forEach(scan);
      return;
    }
    if (!isPlainObject(value)) return;
    if (isPageObject(value)) {
      if (value.page_type && !knownTypes.has(value.page_type)) {
        knownTypes.add(value.page_type);
        data.pageTypes.discovered.push(value.page_type);
        queue.push({ kind: 'pageType', type: value.page_type, origin: 'discovered' });
      }
      scan(value.fields);
      return;
    }
    if (isCollectionItemObject(value)) embeddedItemIds.add(String(value.meta.id));
    for (const v of Object.values(value)) scan(v);
  };

  const contentQuery = { ...contentReadQuery, ...(options.locale !== undefined ? { locale: options.locale } : {}) };
  // ButterCMS serves drafts only with `preview=1` (published entries then come as their latest
  // draft): every list is read both ways, and what only the preview has, or has otherwise, is a draft.
  const previewQuery = { ...contentQuery, preview: 1 };
  /** A list read, or null where the source answers 404 (ButterCMS's answer for "none"). */
  const listOrNone = async (path: string, query: Record<string, string | number>, size: number, pick: (body: unknown) => unknown[]): Promise<unknown[] | null> => {
    try {
      return await client.list(path, query, size, pick, progress);
    } catch (e) {
      if (e instanceof SourceRequestError && e.failure === 'not-found') return null;
      throw e;
    }
  };
  const toPages = (raw: unknown[], what: string): SourcePage[] => {
    const pages: SourcePage[] = [];
    for (const v of raw) {
      const page = toPage(v);
      if (page) pages.push(page);
      else warnings.push({ level: 'warning', message: `${what}: skipped an entry that is not a page (no slug)` });
    }
    return pages;
  };
  /** Published pages, then the drafts: pages only the preview has (as drafts), and drafts of published pages that differ. */
  const readPages = async (path: string, what: string): Promise<SourcePage[] | null> => {
    const published = await listOrNone(path, contentQuery, sourcePageSizes.pages, dataArray);
    const preview = await listOrNone(path, previewQuery, sourcePageSizes.pages, dataArray);
    if (published === null && preview === null) return null;
    const pages = toPages(published ?? [], what);
    const bySlug = new Map(pages.map((p) => [p.slug, p]));
    for (const draft of toPages(preview ?? [], `${what} (drafts)`)) {
      const page = bySlug.get(draft.slug);
      if (!page) {
        pages.push({ ...draft, status: draft.status === 'scheduled' ? 'scheduled' : 'draft', published: null });
      } else if (canonicalJson(draft.fields) !== canonicalJson(page.fields)) {
        page.draftFields = draft.fields;
        // The draft was saved after what is published: its time is the page's last update.
        const draftUpdated = Date.parse(draft.updated ?? '');
        if (!Number.isNaN(draftUpdated) && !(draftUpdated <= Date.parse(page.updated ?? ''))) page.updated = draft.updated;
      }
    }
    return pages;
  };

  const markMissing = (task: Task): void => {
    if (task.kind === 'pageType') {
      data.pageTypes.missing.push(task.type);
      warnings.push({ level: 'warning', message: `page type "${task.type}" (${task.origin}): the source has no pages of it (unknown page type, or none published)` });
    } else if (task.kind === 'collection') {
      data.collectionKeys.missing.push(task.key);
      warnings.push({ level: 'warning', message: `collection "${task.key}" (${task.origin}): the source does not know this collection key` });
    } else {
      warnings.push({ level: 'info', message: `${task.kind === 'singles' ? 'single pages' : task.kind}: the source has none` });
    }
  };

  for (let task = queue.shift(); task; task = queue.shift()) {
    try {
      switch (task.kind) {
        case 'singles': {
          const pages = await readPages('/pages/*/', 'single pages');
          if (pages === null) { markMissing(task); break; }
          for (const p of pages) p.page_type = null;
          data.pages.push(...pages);
          pages.forEach((p) => { scan(p.fields); scan(p.draftFields); });
          break;
        }
        case 'pageType': {
          const pages = await readPages(`/pages/${encodeURIComponent(task.type)}/`, `page type ${task.type}`) ?? [];
          for (const p of pages) p.page_type ??= task.type;
          data.pages.push(...pages);
          pages.forEach((p) => { scan(p.fields); scan(p.draftFields); });
          if (pages.length === 0) markMissing(task);
          break;
        }
        case 'collection': {
          const path = `/content/${encodeURIComponent(task.key)}/`;
          const published = await listOrNone(path, contentQuery, sourcePageSizes.collections, collectionArray(task.key));
          const preview = await listOrNone(path, previewQuery, sourcePageSizes.collections, collectionArray(task.key));
          if (published === null && preview === null) { markMissing(task); break; }
          const withId = (raw: unknown[], what: string): SourceItem[] => {
            const items = raw.filter((v): v is SourceItem => isCollectionItemObject(v));
            if (items.length < raw.length) {
              warnings.push({ level: 'warning', message: `collection ${task.key}${what}: skipped ${raw.length - items.length} entries without meta.id` });
            }
            return items;
          };
          const items = withId(published ?? [], '');
          const byId = new Map(items.map((i) => [String(i.meta.id), i]));
          for (const draft of withId(preview ?? [], ' (drafts)')) {
            const id = String(draft.meta.id);
            const item = byId.get(id);
            if (!item) {
              items.push(draft);
              data.itemDrafts.draftOnly.add(id);
            } else if (canonicalJson(draft) !== canonicalJson(item)) {
              data.itemDrafts.edits.set(id, draft);
            }
          }
          data.collections.set(task.key, items);
          items.forEach(scan);
          data.itemDrafts.edits.forEach(scan);
          break;
        }
        case 'posts': {
          const published = await listOrNone('/posts/', {}, sourcePageSizes.posts, dataArray);
          const preview = await listOrNone('/posts/', { preview: 1 }, sourcePageSizes.posts, dataArray);
          if (published === null && preview === null) { markMissing(task); break; }
          for (const v of published ?? []) {
            const post = toPost(v);
            if (post) data.posts.push(post);
          }
          // Posts carry their status; those only the preview serves are drafts, whatever they say.
          // A post has one version here (no draft beside what is published): a published post's
          // newer draft is not imported, and the log says so.
          const bySlug = new Map(data.posts.map((p) => [p.slug, p]));
          for (const v of preview ?? []) {
            const post = toPost(v);
            if (!post) continue;
            const published = bySlug.get(post.slug);
            if (!published) data.posts.push({ ...post, status: post.status === 'published' ? 'draft' : post.status });
            else if (postContent(post) !== postContent(published)) {
              warnings.push({ level: 'warning', message: `post ${post.slug}: the source has a newer draft of it; blog posts keep one version here, so the published one is imported and the draft is not` });
            }
          }
          for (const post of data.posts) {
            if (post.status === 'scheduled') {
              const at = post.scheduled ? ` for ${post.scheduled}` : '';
              warnings.push({ level: 'warning', message: `post ${post.slug}: scheduled in the source${at}; imported as a draft (blog posts cannot be scheduled here: publish it then)` });
            }
          }
          break;
        }
        case 'authors':
        case 'categories':
        case 'tags': {
          const body = await client.get(`/${task.kind}/`);
          await progress();
          const list = dataArray(body);
          if (task.kind === 'authors') data.authors = list.map(toAuthor).filter((a): a is SourceAuthor => a !== null && a.slug !== '');
          else data[task.kind] = toTerms(list);
          break;
        }
      }
    } catch (e) {
      if (!(e instanceof SourceRequestError) || e.failure !== 'not-found') throw e;
      // Every ButterCMS account has its author list (an empty one answers 200 with []): a 404 there
      // means the API URL points somewhere else, and every other 404 of this run meant nothing.
      if (task.kind === 'authors') {
        throw new SourceRequestError('not-found', `${e.message}, though every ButterCMS account answers it: check the API URL (--api-url; ButterCMS's own is https://api.buttercms.com/v2)`, e.request, e.status);
      }
      // ButterCMS answers 404 for a page type with no pages and for an unknown key alike.
      markMissing(task);
    }
    done += 1;
  }

  const readIds = new Set<string>();
  for (const items of data.collections.values()) for (const item of items) readIds.add(String(item.meta.id));
  data.unknownItemIds = [...embeddedItemIds].filter((id) => !readIds.has(id)).sort();
  if (data.unknownItemIds.length) {
    warnings.push({
      level: 'warning',
      message: `${data.unknownItemIds.length} referenced collection item(s) belong to a collection that was not read ` +
        `(ids ${data.unknownItemIds.slice(0, 10).join(', ')}${data.unknownItemIds.length > 10 ? ', …' : ''}); ` +
        'add its key to the collections to import them; those references are dropped',
    });
  }
  return data;
}

/** The blog alone: posts (10 a page), authors, categories and tags. */
export async function readBlog(client: ButterClient, onProgress?: (progress: ReadProgress) => Promise<void>): Promise<BlogData> {
  const data = await readSource(client, { pageTypes: [], collections: [], blog: true, onProgress, skipPages: true });
  return { posts: data.posts, authors: data.authors, categories: data.categories, tags: data.tags, warnings: data.warnings };
}

/**
 * Media values arrive as `{ url, alt }` (the reads ask for `alt_media_text=1`). Puts each back to
 * its URL, in place, in every page, item and draft read, locale variants included: the rest of the
 * import reads media as URLs. Returns the alt texts by URL, the first non-empty one met for each
 * (ButterCMS keeps one per asset). An empty media field, `{ url: "" }`, becomes "".
 */
export function liftMediaAltTexts(source: SourceData, mediaHosts: readonly string[]): Map<string, string> {
  const alts = new Map<string, string>();
  const lift = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(lift);
    if (!isPlainObject(value)) return value;
    if (isMediaWithAlt(value, mediaHosts)) {
      if (typeof value.alt === 'string' && value.alt.trim() !== '' && !alts.has(value.url)) alts.set(value.url, value.alt);
      return value.url;
    }
    if (isEmptyMediaWithAlt(value)) return '';
    return liftRecord(value);
  };
  const liftRecord = (record: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, lift(v)]));
  const liftPages = (pages: SourcePage[]) => {
    for (const page of pages) {
      page.fields = liftRecord(page.fields);
      if (page.draftFields) page.draftFields = liftRecord(page.draftFields);
    }
  };
  const liftItems = (items: SourceItem[]) => {
    items.forEach((item, i) => { items[i] = { ...liftRecord(item), meta: item.meta }; });
  };
  liftPages(source.pages);
  source.collections.forEach(liftItems);
  for (const [id, draft] of source.itemDrafts.edits) source.itemDrafts.edits.set(id, { ...liftRecord(draft), meta: draft.meta });
  for (const variant of source.variants ?? []) {
    liftPages(variant.pages);
    variant.collections.forEach(liftItems);
  }
  return alts;
}

/** `{ url: "" }` or `{ url: null, alt }`: how an empty media field may arrive under `alt_media_text=1`. */
function isEmptyMediaWithAlt(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return keys.includes('url') && keys.every((k) => k === 'url' || k === 'alt') && (value.url === '' || value.url === null) &&
    (value.alt === undefined || value.alt === null || typeof value.alt === 'string');
}
