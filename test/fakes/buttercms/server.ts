// A fake ButterCMS read API on node:http, faithful to ButterCMS's read API: auth by `auth_token` or
// `Authorization: Token`, DRF-style error bodies, page-number paging with the recorded meta key
// orders, `levels`, and a CDN-like `/media/<id>` route serving real PNG bytes.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFakeAccount, type FakeAccount, type FakeItem, type FakePage, type FakePost, type RawObject } from './account.js';
import { createRenderer, renderAuthor, renderPost, type Json, type RenderOptions } from './render.js';

export type FakeButterMode = 'normal' | 'fail-midway' | 'slow' | 'bad-token' | 'rate-limited';

export interface FakeButterOptions {
  token?: string;
  mode?: FakeButterMode;
  /**
   * fail-midway: API requests answered successfully before every further one gets a 500 (default 3).
   * Media requests neither count nor fail in any mode: like ButterCMS's CDN, they are separate from
   * the API (no token, no quota).
   */
  failAfterRequests?: number;
  /** slow: delay before every answer, media included (default 250 ms). */
  delayMs?: number;
  /** A custom account, e.g. one with conflicting field types; built from the media base URL. */
  account?: (mediaBaseUrl: string) => FakeAccount;
}

export interface FakeButterRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  at: number;
}

export interface FakeButter {
  /** API base, e.g. `http://127.0.0.1:PORT/v2` (no trailing slash). */
  url: string;
  token: string;
  /** Every request received, API and media, in arrival order. */
  requests: FakeButterRequest[];
  close(): Promise<void>;
  /** The live account: changes are visible to later requests. */
  account: FakeAccount;
}

interface Reply {
  status: number;
  body?: Json;
  headers?: Record<string, string>;
  bytes?: Buffer;
}

const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 10;

const ok = (body: Json): Reply => ({ status: 200, body });
const fail = (status: number, detail: string, headers?: Record<string, string>): Reply =>
  headers ? { status, body: { detail }, headers } : { status, body: { detail } };
const NOT_FOUND = (): Reply => fail(404, 'Not found.');
const PAGE_NOT_FOUND = (): Reply => fail(404, 'Page not found.');
// DRF's answer for a page number past the end.
const NOT_FOUND_INVALID_PAGE = (): Reply => fail(404, 'Invalid page.');

class BadRequest extends Error {
  constructor(readonly reply: Reply) {
    super('bad request');
  }
}

function positiveInt(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return /^\d+$/.test(value) ? Number(value) : Number.NaN;
}

function renderOptions(query: Record<string, string>): RenderOptions {
  const levels = positiveInt(query.levels) ?? 2;
  if (!Number.isInteger(levels) || levels < 1 || levels > 5) {
    throw new BadRequest(fail(400, 'levels query parameter should be an integer between 1 and 5 (inclusive)'));
  }
  return { levels, altMediaText: query.alt_media_text === '1' || query.alt_media_text === 'true' };
}

type MetaOrder = 'pages' | 'collections';

/** Page-number paging as DRF does it; `limit`/`offset` as the docs describe (unrecorded). */
function paginate<T>(all: readonly T[], query: Record<string, string>, order: MetaOrder): { items: T[]; meta: Json } {
  const count = all.length;
  if (query.limit !== undefined || query.offset !== undefined) {
    if (query.page !== undefined || query.page_size !== undefined) {
      throw new BadRequest(fail(400, 'Use either page/page_size or limit/offset, not both.'));
    }
    const limit = positiveInt(query.limit) ?? DEFAULT_PAGE_SIZE;
    const offset = positiveInt(query.offset) ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE || !Number.isInteger(offset)) {
      throw new BadRequest(fail(400, `limit must be an integer between 1 and ${MAX_PAGE_SIZE} and offset a non-negative integer`));
    }
    const next = offset + limit < count ? offset + limit : null;
    const previous = offset > 0 ? Math.max(0, offset - limit) : null;
    const meta = order === 'pages'
      ? { next_offset: next, previous_offset: previous, count }
      : { count, next_offset: next, previous_offset: previous };
    return { items: all.slice(offset, offset + limit), meta };
  }
  const size = positiveInt(query.page_size) ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    throw new BadRequest(fail(400, `page_size must be an integer between 1 and ${MAX_PAGE_SIZE} (inclusive)`));
  }
  const page = positiveInt(query.page) ?? 1;
  const last = Math.max(1, Math.ceil(count / size));
  if (!Number.isInteger(page) || page < 1 || page > last) throw new BadRequest(NOT_FOUND_INVALID_PAGE());
  const next = page < last ? page + 1 : null;
  const previous = page > 1 ? page - 1 : null;
  const meta = order === 'pages'
    ? { next_page: next, previous_page: previous, count }
    : { count, next_page: next, previous_page: previous };
  return { items: all.slice((page - 1) * size, page * size), meta };
}

function fieldFilters(query: Record<string, string>): Array<[string, string]> {
  return Object.entries(query)
    .filter(([k]) => k.startsWith('fields.'))
    .map(([k, v]): [string, string] => [k.slice('fields.'.length), v]);
}

function matchesFilters(fields: Record<string, unknown>, filters: Array<[string, string]>): boolean {
  return filters.every(([path, wanted]) => {
    let value: unknown = fields;
    for (const part of path.split('.')) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
    return (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') && String(value) === wanted;
  });
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a ?? '').localeCompare(String(b ?? ''));
}

function sortBy<T>(list: T[], order: string | undefined, get: (entry: T, key: string) => unknown): T[] {
  if (!order) return list;
  const desc = order.startsWith('-');
  const key = desc ? order.slice(1) : order;
  const sorted = [...list].sort((x, y) => compareValues(get(x, key), get(y, key)));
  return desc ? sorted.reverse() : sorted;
}

function pageValue(page: FakePage, key: string): unknown {
  if (key === 'published' || key === 'updated') return page[key];
  return page.fields[key];
}

function containsText(value: unknown, needle: string): boolean {
  return JSON.stringify(value).toLowerCase().includes(needle.toLowerCase());
}

/**
 * The account as read in the requested `locale` (pages and collections take it; the blog does
 * not, and ignores it). Unknown locale: a 400 in DRF's per-parameter form — the spec names 400 for
 * an invalid locale; the exact wording is this fake's.
 */
function inLocale(account: FakeAccount, query: Record<string, string>): FakeAccount {
  const locale = query.locale;
  if (locale === undefined) return account;
  const codes = account.locales?.codes ?? ['en'];
  if (!codes.includes(locale)) throw new BadRequest({ status: 400, body: { locale: [`Invalid locale "${locale}": this account has no such locale.`] } });
  const values = account.locales?.values[locale];
  if (locale === codes[0] || !values) return account;
  return {
    ...account,
    pages: account.pages.map((p) => (values.pages?.[p.slug] ? { ...p, fields: { ...p.fields, ...values.pages[p.slug] } } : p)),
    collections: Object.fromEntries(Object.entries(account.collections).map(([key, list]) => [key,
      list.map((i) => (values.items?.[i.id] ? { ...i, fields: { ...i.fields, ...values.items[i.id] } } : i))])),
  };
}

/** The account as a preview read (`preview=1`, or the legacy `test=1`) sees it: drafts included. */
function inPreview(account: FakeAccount, query: Record<string, string>): FakeAccount {
  const drafts = account.drafts;
  if (!drafts || (query.preview !== '1' && query.test !== '1')) return account;
  const edited = <T extends { fields: RawObject }>(entry: T, edit: RawObject | undefined): T => (edit ? { ...entry, fields: { ...entry.fields, ...edit } } : entry);
  const collections: Record<string, FakeItem[]> = {};
  for (const key of new Set([...Object.keys(account.collections), ...Object.keys(drafts.items ?? {})])) {
    collections[key] = [...(account.collections[key] ?? []).map((i) => edited(i, drafts.itemEdits?.[i.id])), ...(drafts.items?.[key] ?? [])];
  }
  return {
    ...account,
    pages: [
      ...account.pages.map((p) => {
        const edit = drafts.pageEdits?.[p.slug];
        return edit && drafts.pageEditsUpdated ? { ...edited(p, edit), updated: drafts.pageEditsUpdated } : edited(p, edit);
      }),
      ...(drafts.pages ?? []),
    ],
    collections,
    posts: [...account.posts.map((p) => ({ ...p, ...drafts.postEdits?.[p.slug] })), ...(drafts.posts ?? [])],
  };
}

function routeApi(whole: FakeAccount, segments: string[], query: Record<string, string>): Reply {
  const account = inPreview(whole, query);
  const [resource, ...rest] = segments;
  switch (resource) {
    case 'pages':
      return routePages(inLocale(account, query), rest, query);
    case 'content':
      return routeContent(inLocale(account, query), rest, query);
    case 'posts':
      return routePosts(account, rest, query);
    case 'authors': {
      const include = query.include === 'recent_posts';
      if (rest.length === 0) return ok({ data: account.authors.map((a) => renderAuthor(account, a, include)) });
      const author = rest.length === 1 ? account.authors.find((a) => a.slug === rest[0]) : undefined;
      return author ? ok({ data: renderAuthor(account, author, include) }) : NOT_FOUND();
    }
    case 'categories':
    case 'tags':
      return routeTerms(account, resource, rest, query);
    case 'feeds':
      return routeFeeds(account, rest);
    default:
      return NOT_FOUND();
  }
}

function routePages(account: FakeAccount, rest: string[], query: Record<string, string>): Reply {
  const opts = renderOptions(query);
  const render = createRenderer(account, opts);
  const [type, slug, ...extra] = rest;
  if (extra.length > 0) return NOT_FOUND();

  if (type === 'search' && slug === undefined) {
    const needle = query.query ?? '';
    const found = account.pages.filter(
      (p) => (!query.page_type || p.page_type === query.page_type) && needle !== '' && containsText([p.name, p.slug, p.fields], needle),
    );
    const { items, meta } = paginate(found, query, 'pages');
    return ok({ meta, data: items.map(render.page) });
  }

  // `/pages/` is documented as "List all Single Pages"; SDKs use `/pages/*/`.
  const wanted = type === undefined || type === '*' ? null : type;
  if (slug !== undefined) {
    const page = account.pages.find((p) => p.slug === slug && (type === '*' || p.page_type === type));
    return page ? ok({ data: render.page(page) }) : PAGE_NOT_FOUND();
  }
  let pages = account.pages.filter((p) => p.page_type === wanted);
  if (wanted !== null) {
    if (pages.length === 0) return PAGE_NOT_FOUND();
    // ButterCMS supports no filtering or ordering with `*`.
    const filters = fieldFilters(query);
    pages = sortBy(
      pages.filter((p) => matchesFilters(p.fields, filters)),
      query.order,
      pageValue,
    );
  }
  const { items, meta } = paginate(pages, query, 'pages');
  return ok({ meta, data: items.map(render.page) });
}

function parseKeys(raw: string): Array<{ key: string; id?: number }> {
  return raw
    .split(',')
    .filter((k) => k !== '')
    .map((k) => {
      const m = /^([^[]+)\[_id=(\d+)\]$/.exec(k);
      return m?.[1] !== undefined ? { key: m[1], id: Number(m[2]) } : { key: k };
    });
}

function routeContent(account: FakeAccount, rest: string[], query: Record<string, string>): Reply {
  const opts = renderOptions(query);
  const render = createRenderer(account, opts);
  const [key, id, ...extra] = rest;
  if (extra.length > 0) return NOT_FOUND();

  if (key === undefined) {
    // Legacy multi-key form; without keys the recorded answer is a bare `{}`.
    if (query.keys === undefined) return ok({});
    const data: Record<string, Json> = {};
    for (const wanted of parseKeys(query.keys)) {
      const list = account.collections[wanted.key];
      if (!list) return fail(404, `Content key ${wanted.key} not found`);
      const selected = wanted.id === undefined ? list : list.filter((i) => i.id === wanted.id);
      data[wanted.key] = selected.map(render.item);
    }
    return ok({ data });
  }

  const list = account.collections[key];
  if (!list) return NOT_FOUND();
  if (id !== undefined) {
    const found = list.find((i) => String(i.id) === id);
    return found ? ok({ data: { [key]: [render.item(found)] } }) : NOT_FOUND();
  }
  const filters = fieldFilters(query);
  const selected = sortBy(
    list.filter((i) => matchesFilters(i.fields, filters)),
    query.order,
    (i: FakeItem, k) => i.fields[k],
  );
  const { items, meta } = paginate(selected, query, 'collections');
  return ok({ meta, data: { [key]: items.map(render.item) } });
}

function routePosts(account: FakeAccount, rest: string[], query: Record<string, string>): Reply {
  const [slug, ...extra] = rest;
  if (extra.length > 0) return NOT_FOUND();
  const newestFirst = [...account.posts].sort((a, b) => Date.parse(b.published) - Date.parse(a.published));

  if (slug === 'search') {
    const needle = query.query ?? '';
    const found = newestFirst.filter((p) => needle !== '' && containsText([p.title, p.body, p.summary], needle));
    const { items, meta } = paginate(found, query, 'pages');
    return ok({
      meta,
      data: items.map((p, i) => ({ ...(renderPost(account, p) as Record<string, Json>), rank: 1 / (i + 1) })),
    });
  }
  if (slug !== undefined) {
    const index = newestFirst.findIndex((p) => p.slug === slug);
    const post = newestFirst[index];
    if (!post) return NOT_FOUND();
    const neighbour = (p: FakePost | undefined): Json =>
      p ? { slug: p.slug, title: p.title, featured_image: p.featured_image } : null;
    // next = newer, previous = older, matching the example where the newest post has next_post null.
    return ok({
      meta: { next_post: neighbour(newestFirst[index - 1]), previous_post: neighbour(newestFirst[index + 1]) },
      data: renderPost(account, post, { detail: true }),
    });
  }
  const filtered = newestFirst.filter(
    (p) =>
      (!query.author_slug || p.author === query.author_slug) &&
      (!query.category_slug || p.categories.includes(query.category_slug)) &&
      (!query.tag_slug || p.tags.includes(query.tag_slug)),
  );
  const { items, meta } = paginate(filtered, query, 'pages');
  const excludeBody = query.exclude_body === 'true' || query.exclude_body === '1';
  return ok({ meta, data: items.map((p) => renderPost(account, p, { excludeBody })) });
}

function routeTerms(account: FakeAccount, kind: 'categories' | 'tags', rest: string[], query: Record<string, string>): Reply {
  const terms = account[kind];
  const include = query.include === 'recent_posts';
  const render = (t: { name: string; slug: string }): Json => {
    const base: Record<string, Json> = { name: t.name, slug: t.slug };
    if (include) {
      base.recent_posts = account.posts
        .filter((p) => (kind === 'tags' ? p.tags : p.categories).includes(t.slug))
        .map((p) => renderPost(account, p, { detail: true }));
    }
    return base;
  };
  if (rest.length === 0) return ok({ data: terms.map(render) });
  const term = rest.length === 1 ? terms.find((t) => t.slug === rest[0]) : undefined;
  return term ? ok({ data: render(term) }) : NOT_FOUND();
}

function routeFeeds(account: FakeAccount, rest: string[]): Reply {
  const [feed, ...extra] = rest;
  if (extra.length > 0 || (feed !== 'rss' && feed !== 'atom' && feed !== 'sitemap')) return NOT_FOUND();
  const entries = account.posts.map((p) => `<item><title>${p.title}</title><link>/${p.slug}</link></item>`).join('');
  return ok({ data: `<?xml version="1.0" encoding="utf-8"?>\n<${feed}>${entries}</${feed}>` });
}

function routeMedia(account: FakeAccount, path: string): Reply {
  // Transformations (`/media/resize=width:800/<id>`) are ignored: the id is the last segment.
  const id = path.split('/').filter(Boolean).at(-1) ?? '';
  const asset = account.media.find((m) => m.id === id);
  if (!asset) return NOT_FOUND();
  return {
    status: 200,
    bytes: asset.bytes,
    headers: { 'Content-Type': asset.contentType, 'Cache-Control': 'public, max-age=31536000' },
  };
}

function tokenOf(req: IncomingMessage, query: Record<string, string>): string | undefined {
  if (query.auth_token !== undefined) return query.auth_token;
  const header = req.headers.authorization;
  const m = header ? /^Token\s+(.+)$/i.exec(header) : null;
  return m?.[1]?.trim();
}

/** Starts the fake on 127.0.0.1 with an ephemeral port. */
export async function startFakeButter(opts: FakeButterOptions = {}): Promise<FakeButter> {
  const token = opts.token ?? 'fake-butter-read-token';
  const mode: FakeButterMode = opts.mode ?? 'normal';
  const failAfter = opts.failAfterRequests ?? 3;
  const delayMs = opts.delayMs ?? 250;
  const requests: FakeButterRequest[] = [];
  const pendingTimers = new Set<NodeJS.Timeout>();
  let successfulApiRequests = 0;
  let account: FakeAccount | undefined;

  const answerApi = (req: IncomingMessage, pathname: string, query: Record<string, string>): Reply => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return { ...fail(405, `Method "${req.method ?? ''}" not allowed.`), headers: { Allow: 'GET, HEAD, OPTIONS' } };
    }
    const challenge = { 'WWW-Authenticate': 'Token' };
    const given = tokenOf(req, query);
    if (mode === 'bad-token') return fail(401, 'Invalid token.', challenge);
    if (given === undefined || given === '') return fail(401, 'Authentication credentials were not provided.', challenge);
    if (given !== token) return fail(401, 'Invalid token.', challenge);
    if (mode === 'rate-limited') return fail(429, 'API Calls limit reached.');
    if (mode === 'fail-midway' && successfulApiRequests >= failAfter) return fail(500, 'Server error');

    // Trailing slash optional: the docs demand one, but recordings show both answered directly.
    const segments = pathname.split('/').filter((s) => s !== '').slice(1).map(decodeURIComponent);
    let reply: Reply;
    try {
      reply = routeApi(account!, segments, query);
    } catch (error) {
      if (error instanceof BadRequest) return error.reply;
      throw error;
    }
    if (reply.status < 300) successfulApiRequests += 1;
    return reply;
  };

  const send = (res: ServerResponse, req: IncomingMessage, reply: Reply): void => {
    if (res.destroyed) return;
    const payload = reply.bytes ?? Buffer.from(reply.body === undefined ? '' : JSON.stringify(reply.body));
    res.statusCode = reply.status;
    if (!reply.bytes) res.setHeader('Content-Type', 'application/json');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Vary', 'Accept, Authorization');
    for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
    res.setHeader('Content-Length', payload.length);
    res.end(req.method === 'HEAD' ? undefined : payload);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = v;
    requests.push({ method: req.method ?? 'GET', path: url.pathname, query, at: Date.now() });

    const answer = (): void => {
      let reply: Reply;
      try {
        if (url.pathname === '/v2' || url.pathname.startsWith('/v2/')) reply = answerApi(req, url.pathname, query);
        else if (url.pathname.startsWith('/media/')) reply = routeMedia(account!, url.pathname.slice('/media/'.length));
        else reply = NOT_FOUND();
      } catch (error) {
        reply = fail(500, error instanceof Error ? error.message : 'Server error');
      }
      send(res, req, reply);
    };
    if (mode === 'slow') {
      const timer = setTimeout(() => {
        pendingTimers.delete(timer);
        answer();
      }, delayMs);
      pendingTimers.add(timer);
    } else {
      answer();
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  account = (opts.account ?? createFakeAccount)(`${origin}/media`);

  return {
    url: `${origin}/v2`,
    token,
    requests,
    account,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of pendingTimers) clearTimeout(timer);
        pendingTimers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets (undici's default) would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}
