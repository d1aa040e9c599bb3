// Turns the raw account into delivered JSON the way ButterCMS does:
// references expand into objects up to `levels` deep and into API URI strings beyond it; media
// markers become URLs, or `{ url, alt }` with `alt_media_text=1`.

import {
  isItemRef,
  isMediaRef,
  isPageRef,
  type FakeAccount,
  type FakeAuthor,
  type FakeItem,
  type FakePage,
  type FakePost,
  type RawValue,
} from './account.js';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface RenderOptions {
  /** Reference depth, 1..5; the requested entity is level 1. */
  levels: number;
  altMediaText: boolean;
}

export const defaultRenderOptions: RenderOptions = { levels: 2, altMediaText: false };

interface Lookup {
  account: FakeAccount;
  pages: Map<string, FakePage>;
  items: Map<number, { collection: string; item: FakeItem }>;
  media: Map<string, string>;
}

function createLookup(account: FakeAccount): Lookup {
  const pages = new Map(account.pages.map((p) => [p.slug, p]));
  const items = new Map<number, { collection: string; item: FakeItem }>();
  for (const [collection, list] of Object.entries(account.collections)) {
    for (const item of list) items.set(item.id, { collection, item });
  }
  const media = new Map(account.media.map((m) => [m.id, m.alt]));
  return { account, pages, items, media };
}

export function mediaUrl(account: FakeAccount, id: string): string {
  return `${account.mediaBaseUrl}/${id}`;
}

export function itemUri(collection: string, id: number): string {
  return `/v2/content/?keys=${collection}[_id=${id}]`;
}

// ButterCMS documents no URI form for pages past the depth limit; this mirrors the read endpoint.
export function pageUri(pageType: string | null, slug: string): string {
  return `/v2/pages/${pageType ?? '*'}/${slug}/`;
}

function renderValue(value: RawValue, depth: number, opts: RenderOptions, lookup: Lookup): Json {
  if (isItemRef(value)) {
    const found = lookup.items.get(value.id);
    if (!found || depth >= opts.levels) return itemUri(value.collection, value.id);
    return renderItemAt(found.item, depth + 1, opts, lookup);
  }
  if (isPageRef(value)) {
    const found = lookup.pages.get(value.slug);
    if (!found || depth >= opts.levels) return pageUri(found?.page_type ?? null, value.slug);
    return renderPageAt(found, depth + 1, opts, lookup);
  }
  if (isMediaRef(value)) {
    const url = mediaUrl(lookup.account, value.$media);
    return opts.altMediaText ? { url, alt: lookup.media.get(value.$media) ?? '' } : url;
  }
  if (Array.isArray(value)) return value.map((v) => renderValue(v, depth, opts, lookup));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [key, v] of Object.entries(value)) out[key] = renderValue(v, depth, opts, lookup);
    return out;
  }
  return value;
}

function renderPageAt(page: FakePage, depth: number, opts: RenderOptions, lookup: Lookup): Json {
  return {
    slug: page.slug,
    name: page.name,
    published: page.published,
    updated: page.updated,
    page_type: page.page_type,
    ...(page.status ? { status: page.status } : {}),
    ...(page.scheduled !== undefined ? { scheduled: page.scheduled } : {}),
    fields: renderValue(page.fields, depth, opts, lookup),
  };
}

function renderItemAt(item: FakeItem, depth: number, opts: RenderOptions, lookup: Lookup): Json {
  const fields = renderValue(item.fields, depth, opts, lookup) as Record<string, Json>;
  return { meta: { id: item.id }, ...fields };
}

export interface Renderer {
  page(page: FakePage): Json;
  item(item: FakeItem): Json;
}

/**
 * A renderer over the account as it is now (lookups are built once per renderer, so create one per
 * request: tests may change the account of a running server).
 */
export function createRenderer(account: FakeAccount, opts: RenderOptions = defaultRenderOptions): Renderer {
  const lookup = createLookup(account);
  return {
    page: (page) => renderPageAt(page, 1, opts, lookup),
    item: (item) => renderItemAt(item, 1, opts, lookup),
  };
}

/** The author object embedded in posts (key order as recorded in list responses). */
function renderPostAuthor(author: FakeAuthor | undefined): Json {
  if (!author) return null;
  return {
    bio: author.bio,
    slug: author.slug,
    email: author.email,
    title: author.title,
    last_name: author.last_name,
    first_name: author.first_name,
    facebook_url: author.facebook_url,
    linkedin_url: author.linkedin_url,
    instagram_url: author.instagram_url,
    pinterest_url: author.pinterest_url,
    profile_image: author.profile_image,
    twitter_handle: author.twitter_handle,
  };
}

export interface PostRenderOptions {
  excludeBody?: boolean;
  /** Detail and recent_posts shapes: `url` is null and `deleted: null` is present (as recorded). */
  detail?: boolean;
}

export function renderPost(account: FakeAccount, post: FakePost, opts: PostRenderOptions = {}): Json {
  const terms = (slugs: string[], all: FakeAccount['tags']): Json =>
    slugs.flatMap((slug) => {
      const term = all.find((t) => t.slug === slug);
      return term ? [{ name: term.name, slug: term.slug }] : [];
    });
  const out: Record<string, Json> = {
    status: post.status,
    created: post.created,
    updated: post.updated,
    published: post.published,
    title: post.title,
    slug: post.slug,
  };
  if (!opts.excludeBody) out.body = post.body;
  Object.assign(out, {
    summary: post.summary,
    seo_title: post.seo_title,
    meta_description: post.meta_description,
    featured_image_alt: post.featured_image_alt,
    // Recorded inconsistency: "/slug" in lists, null in the detail of the same post.
    url: opts.detail ? null : `/${post.slug}`,
    featured_image: post.featured_image,
    author: renderPostAuthor(account.authors.find((a) => a.slug === post.author)),
    tags: terms(post.tags, account.tags),
    categories: terms(post.categories, account.categories),
  });
  if (post.scheduled !== undefined) out.scheduled = post.scheduled;
  if (opts.detail) out.deleted = null;
  return out;
}

export function renderAuthor(account: FakeAccount, author: FakeAuthor, includeRecentPosts: boolean): Json {
  const out: Record<string, Json> = { ...author };
  if (includeRecentPosts) {
    out.recent_posts = account.posts.filter((p) => p.author === author.slug).map((p) => renderPost(account, p, { detail: true }));
  }
  return out;
}
