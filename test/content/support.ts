import { randomUUID } from 'node:crypto';
import { blogPosts, media } from '../../src/db/schema/index.js';
import type { EmittedEvent } from '../../src/runtime.js';
import { createTestCms, type TestCms, type TestCmsOptions } from '../helpers/engine.js';
import { serveInProcess, serveOverSocket, type HttpClient } from '../helpers/http.js';

/** Responses whose JSON tests read freely. */
export type JsonResponse = Omit<Response, 'json'> & { json(): Promise<any> };

export type DoorName = 'socket' | 'app.fetch';
export const doorNames: DoorName[] = ['socket', 'app.fetch'];

export interface RequestOptions {
  /** The X-API-Key header; null sends none. Defaults to the public key (reads) or the secret key (writes). */
  key?: string | null;
  /** Idempotency-Key for writes; null sends none. Defaults to a fresh UUID. */
  idem?: string | null;
  headers?: Record<string, string>;
  /** Which door: the socket server unless told. */
  door?: DoorName;
}

export interface ContentHarness {
  t: TestCms;
  /** The app on a real socket. */
  http: HttpClient;
  /** The same engine through `app.fetch` (its own app, so its own response cache). */
  inProcess: HttpClient;
  projectId: string;
  /** Events committed since the harness started (clear with `events.length = 0`). */
  events: EmittedEvent[];
  keys: { public: string; secret: string; secretNoWrite: string; preview: string };
  get(path: string, options?: RequestOptions): Promise<JsonResponse>;
  write(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<JsonResponse>;
  /** POST /api/v1/pages, expecting 201; returns `data`. */
  createPage(body: Record<string, unknown>): Promise<any>;
  /** POST /api/v1/collections/:type, expecting 201; returns `data`. */
  createItem(type: string, body: Record<string, unknown>): Promise<any>;
  /** Inserts a media row directly (no file upload needed for delivery). */
  insertMedia(values?: { width?: number | null; height?: number | null; altText?: string | null; originalFilename?: string; mimeType?: string }): Promise<{ id: string; filename: string }>;
  insertBlogPost(values: { title: string; slug: string; status?: 'draft' | 'published' }): Promise<{ id: string }>;
  close(): Promise<void>;
}

/** The schema every content suite shares. */
export const contentSchema = {
  components: [
    { definition: { slug: 'hero-banner', name: 'Hero banner', fields: [{ name: 'heading', type: 'text' }, { name: 'image', type: 'image' }] } },
    { definition: { slug: 'call-to-action', name: 'Call to action', fields: [{ name: 'label', type: 'text' }, { name: 'href', type: 'text' }] } },
  ],
  pageTypes: [
    { definition: { slug: 'landing', name: 'Landing', fields: [
      { name: 'title', type: 'text', required: true },
      { name: 'summary', type: 'textarea' },
      { name: 'tagline', type: 'text', defaultValue: 'Welcome' },
      { name: 'priority', type: 'number' },
      { name: 'hero', type: 'image' },
      { name: 'gallery', type: 'json' },
      { name: 'product', type: 'reference', options: { collectionType: 'products' } },
      { name: 'products', type: 'reference', options: { collectionType: 'products', multiple: true } },
      { name: 'related', type: 'reference', options: { referenceType: 'page' } },
      { name: 'author', type: 'reference', options: { referenceType: 'user' } },
      { name: 'post', type: 'reference', options: { referenceType: 'blogPost' } },
      { name: 'blocks', type: 'componentPicker' },
      { name: 'cta', type: 'nestedComponent', options: { componentSlug: 'call-to-action' } },
    ] } },
    { definition: { slug: 'article', name: 'Article', fields: [{ name: 'title', type: 'text' }, { name: 'body', type: 'textarea' }] } },
  ],
  collections: [
    { definition: { slug: 'products', name: 'Products', fields: [
      { name: 'price', type: 'number' },
      { name: 'sku', type: 'text' },
      { name: 'rank', type: 'text' },
      { name: 'featured', type: 'boolean' },
      { name: 'meta', type: 'json' },
      { name: 'image', type: 'image' },
      { name: 'category', type: 'reference', options: { collectionType: 'categories' } },
    ] } },
    { definition: { slug: 'categories', name: 'Categories', fields: [
      { name: 'label', type: 'text', required: true },
      { name: 'code', type: 'text', defaultValue: 'none' },
    ] } },
  ],
};

export async function createContentHarness(options: TestCmsOptions = {}): Promise<ContentHarness> {
  // Suites send far more requests than the default per-key quota; the rate-limit suite sets its own.
  const t = await createTestCms({ ...options, config: { rateLimit: null, ...options.config } });
  await t.run('schema.push', contentSchema);
  const key = async (type: string, permissions?: string) => (await t.run('keys.create', { type, ...(permissions ? { permissions } : {}) })).key as string;
  const keys = {
    public: await key('public'),
    secret: await key('secret', 'content:write'),
    secretNoWrite: await key('secret', 'media:write'),
    preview: await key('preview'),
  };
  const http = await serveOverSocket(t.cms);
  const inProcess = serveInProcess(t.cms);
  const projectId = (await t.cms.resolveProject(t.config.project)).id;
  const events: EmittedEvent[] = [];
  t.cms.events.on('event', (ev) => events.push(ev));

  const client = (door: DoorName | undefined) => (door === 'app.fetch' ? inProcess : http);
  const get = (path: string, o: RequestOptions = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    const k = o.key === undefined ? keys.public : o.key;
    if (k) headers['x-api-key'] = k;
    return client(o.door).fetch(path, { headers }) as Promise<JsonResponse>;
  };
  const write = (method: string, path: string, body?: unknown, o: RequestOptions = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...o.headers };
    const k = o.key === undefined ? keys.secret : o.key;
    if (k) headers['x-api-key'] = k;
    const idem = o.idem === undefined ? randomUUID() : o.idem;
    if (idem !== null) headers['idempotency-key'] = idem;
    return client(o.door).fetch(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }) as Promise<JsonResponse>;
  };
  const expectCreated = async (r: JsonResponse) => {
    const body = await r.json();
    if (r.status !== 201) throw new Error(`expected 201, got ${r.status}: ${JSON.stringify(body)}`);
    return body.data;
  };
  return {
    t, http, inProcess, projectId, events, keys, get, write,
    createPage: async (body) => expectCreated(await write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', ...body })),
    createItem: async (type, body) => expectCreated(await write('POST', `/api/v1/collections/${type}`, body)),
    async insertMedia(values = {}) {
      const sha = randomUUID().replace(/-/g, '');
      const [row] = await t.cms.db.insert(media).values({
        projectId,
        filename: `${sha}.png`,
        originalFilename: values.originalFilename ?? 'photo.png',
        mimeType: values.mimeType ?? 'image/png',
        size: 1234,
        sha256: sha,
        width: values.width === undefined ? 640 : values.width,
        height: values.height === undefined ? 480 : values.height,
        altText: values.altText === undefined ? 'A photo' : values.altText,
      }).returning();
      return { id: row!.id, filename: row!.filename };
    },
    async insertBlogPost(values) {
      const status = values.status ?? 'published';
      const [row] = await t.cms.db.insert(blogPosts).values({
        projectId, title: values.title, slug: values.slug, status,
        publishedAt: status === 'published' ? new Date('2026-02-01T00:00:00.000Z') : null,
      }).returning();
      return { id: row!.id };
    },
    async close() {
      await http.close();
      await t.close();
    },
  };
}

/** The keys of a delivered page, in no particular order. */
export const pageReadKeys = ['fields', 'id', 'name', 'publishedAt', 'seo', 'slug', 'type', 'updatedAt'];
export const itemReadKeys = ['fields', 'id', 'name', 'publishedAt', 'slug', 'type', 'updatedAt'];
export const seoReadKeys = ['canonicalUrl', 'metaDescription', 'metaRobots', 'metaTitle', 'ogDescription', 'ogImage', 'ogTitle'];
/** The write shape's members the contract names (the implementation may add more). */
export const pageWriteKeys = ['createdAt', 'draftContent', 'id', 'name', 'pageTypeId', 'publishedAt', 'publishedContent', 'seo', 'slug', 'status', 'updatedAt', 'version'];

export const sortedKeys = (o: object) => Object.keys(o).sort();
