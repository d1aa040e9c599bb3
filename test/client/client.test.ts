import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CmsApiError, createClient, type CmsClient } from '../../src/client/index.js';
import { testDriver } from '../helpers/db.js';
import { createAdminHarness, type AdminHarness } from '../admin/support.js';
import { everyFieldPush } from './fixtures.js';

/** The part of the generated CmsTypes these tests use (test/client/consumer.test.ts compiles the real one). */
interface TestTypes {
  pageTypes: {
    'landing-page': { fields: { title: string; summary?: string | null; score?: number | null; theme?: 'light' | 'dark' | null; featured?: unknown; cover?: unknown }; localized: 'title' };
  };
  collections: {
    products: { fields: { title: string; price?: number | null; inStock?: boolean | null; category?: 'lamps' | 'chairs' | null; photo?: unknown }; localized: 'title' };
    makers: { fields: { country?: string | null }; localized: never };
  };
}

const caught = async (p: Promise<unknown>): Promise<CmsApiError> => {
  try { await p; } catch (e) { if (e instanceof CmsApiError) return e; throw e; }
  throw new Error('expected a CmsApiError');
};

/** cms/client against the real HTTP server over a socket (issue 18). */
describe(`cms/client (${testDriver})`, () => {
  let h: AdminHarness;
  let reader: CmsClient<TestTypes>;
  let writer: CmsClient<TestTypes>;
  let keys: { public: string; secret: string; preview: string };
  const sent: Array<{ url: string; headers: Record<string, string> }> = [];

  beforeAll(async () => {
    h = await createAdminHarness();
    await h.t.run('schema.push', everyFieldPush);
    await h.t.run('locales.add', { code: 'fr', name: 'Français' });
    const key = async (type: string, permissions?: string) => (await h.t.run('keys.create', { type, ...(permissions ? { permissions } : {}) })).key as string;
    keys = { public: await key('public'), secret: await key('secret', 'content:write,media:write'), preview: await key('preview') };
    const recording = (input: string, init: RequestInit) => {
      sent.push({ url: input, headers: Object.fromEntries(Object.entries(init.headers ?? {})) });
      return fetch(input, init);
    };
    reader = createClient<TestTypes>({ baseUrl: `${h.http.url}/`, apiKey: keys.public, previewKey: keys.preview, fetch: recording });
    writer = createClient<TestTypes>({ baseUrl: h.http.url, apiKey: keys.secret, fetch: recording });
  });
  afterAll(async () => { await h.close(); });

  it('writes with a secret key: create, update, publish items and pages, each with its own Idempotency-Key', async () => {
    sent.length = 0;
    for (const [slug, title, price, category] of [['lamp', 'Lamp', 25, 'lamps'], ['chair', 'Chair', 80, 'chairs'], ['stool', 'Stool', 8, 'chairs']] as const) {
      const item = await writer.collection('products').create({ name: title, slug, fields: { title, price, category, inStock: price > 10 }, status: 'published' });
      expect(item).toMatchObject({ slug, status: 'published', collectionTypeSlug: 'products', version: 1 });
    }
    const page = await writer.pages.create({ pageTypeSlug: 'landing-page', name: 'Home', slug: 'home', fields: { title: 'Home', score: 3, theme: 'dark' } });
    expect(page).toMatchObject({ slug: 'home', status: 'draft', pageTypeSlug: 'landing-page' });
    const updated = await writer.pages.update('home', { fields: { summary: 'Welcome' }, seo: { metaTitle: 'Home page' } }, { version: 1 });
    expect(updated.version).toBe(2);
    const fr = await writer.pages.update('home', { locale: 'fr', fields: { title: 'Accueil' } });
    expect(fr.version).toBe(3);
    const published = await writer.pages.publish('home');
    expect(published.status).toBe('published');
    const idem = sent.map((s) => s.headers['idempotency-key']);
    expect(idem).toHaveLength(7);
    expect(new Set(idem).size).toBe(7);
    for (const k of idem) expect(k).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('a given Idempotency-Key replays the first answer; the same key with another body is IDEMPOTENCY_KEY_REUSED (422)', async () => {
    const first = await writer.collection('makers').create({ name: 'Acme', slug: 'acme', fields: { country: 'FR' } }, { idempotencyKey: 'make-acme' });
    const again = await writer.collection('makers').create({ name: 'Acme', slug: 'acme', fields: { country: 'FR' } }, { idempotencyKey: 'make-acme' });
    expect(again).toEqual(first);
    const e = await caught(writer.collection('makers').create({ name: 'Other', slug: 'other' }, { idempotencyKey: 'make-acme' }));
    expect({ status: e.status, code: e.code }).toEqual({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('reads pages: list by page type with pagination, get by slug with redirect null, fields selection', async () => {
    const list = await reader.pages.list({ pageType: 'landing-page', limit: 5 });
    expect(list.pagination).toEqual({ total: 1, page: 1, limit: 5, totalPages: 1 });
    const home = list.data[0]!;
    expect(home.type).toBe('landing-page');
    expect(home.fields.title).toBe('Home');
    expect(home.seo.metaTitle).toBe('Home page');
    const one = await reader.pages.get('home', { fields: ['title'] });
    expect(one.redirect).toBeNull();
    expect(one.data.fields).toEqual({ title: 'Home' });
  });

  it('lists a collection with a typed filter and sort', async () => {
    const cheap = await reader.collection('products').list({ filter: { 'fields.price': { gt: 10 }, 'fields.category': 'chairs' }, sort: '-fields.price' });
    expect(cheap.data.map((i) => i.slug)).toEqual(['chair']);
    const byName = await reader.collection('products').list({ filter: { name: { contains: 'a' }, 'fields.price': { in: [25, 80] } }, sort: ['name'] });
    expect(byName.data.map((i) => i.slug)).toEqual(['chair', 'lamp']);
    const item = await reader.collection('products').get('lamp');
    expect(item.data.fields.price).toBe(25);
    expect(item.redirect).toBeNull();
  });

  it('reads in a locale: locale beside data and _fallbacks on each entry', async () => {
    const fr = await reader.pages.get('home', { locale: 'fr' });
    expect(fr.locale).toBe('fr');
    expect(fr.data.fields.title).toBe('Accueil');
    expect(fr.data._fallbacks).toEqual(expect.arrayContaining(['seo.metaTitle']));
    const all = await reader.pages.get('home', { locale: '*' });
    expect(all.data.fields.title).toEqual({ en: 'Home', fr: 'Accueil' });
    const items = await reader.collection('products').list({ locale: 'fr', sort: 'slug' });
    expect(items.locale).toBe('fr');
    expect(items.data[0]!._fallbacks).toEqual(['title']);
  });

  it('previews drafts with the preview key, which is sent only when asked for', async () => {
    await writer.pages.create({ pageTypeSlug: 'landing-page', name: 'Draft', slug: 'draft', fields: { title: 'Draft' } });
    const e = await caught(reader.pages.get('draft'));
    expect({ status: e.status, code: e.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    sent.length = 0;
    const preview = await reader.pages.get('draft', { preview: true });
    expect(preview.data.fields.title).toBe('Draft');
    expect(sent[0]!.headers['x-preview-key']).toBe(keys.preview);
    const bad = createClient<TestTypes>({ baseUrl: h.http.url, apiKey: keys.public, previewKey: 'preview_nope' });
    const invalid = await caught(bad.pages.list({ preview: true }));
    expect({ status: invalid.status, code: invalid.code }).toEqual({ status: 401, code: 'INVALID_PREVIEW_KEY' });
  });

  it('follows old slugs: the page with redirect filled', async () => {
    await writer.pages.update('home', { slug: 'start' });
    const old = await reader.pages.get('home');
    expect(old.redirect).toEqual({ from: 'home', to: 'start', permanent: true });
    expect(old.data.slug).toBe('start');
  });

  it('throws CmsApiError with status, code, message and details', async () => {
    const badQuery = await caught(reader.collection('products').list({ limit: 101 }));
    expect(badQuery).toMatchObject({ status: 400, code: 'INVALID_QUERY', details: { parameter: 'limit' } });
    expect(badQuery.message).toContain('limit');
    const forbidden = await caught(reader.pages.create({ pageTypeSlug: 'landing-page', name: 'X', slug: 'x' }));
    expect({ status: forbidden.status, code: forbidden.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    const invalid = await caught(writer.pages.create({ pageTypeSlug: 'landing-page', name: 'Bad', slug: 'bad', fields: { score: 'high' } }));
    expect(invalid.code).toBe('VALIDATION_FAILED');
    expect(invalid.details).toEqual([expect.objectContaining({ path: 'fields.score' })]);
    const taken = await caught(writer.collection('products').create({ name: 'Lamp', slug: 'lamp', fields: { title: 'Lamp' } }));
    expect({ status: taken.status, code: taken.code }).toEqual({ status: 409, code: 'SLUG_EXISTS' });
    const conflict = await caught(writer.pages.update('start', { name: 'Start' }, { version: 1 }));
    expect(conflict).toMatchObject({ status: 409, code: 'VERSION_CONFLICT' });
    const noKey = await caught(createClient({ baseUrl: h.http.url }).pages.list());
    expect({ status: noKey.status, code: noKey.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    expect(noKey).toBeInstanceOf(Error);
  });

  it('unpublishes and deletes; media uploads and reads; the blog reads', async () => {
    expect((await writer.collection('products').unpublish('stool')).status).toBe('draft');
    expect(await writer.collection('products').delete('stool')).toEqual({ success: true });
    expect(await writer.pages.delete('draft')).toEqual({ success: true });
    const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'));
    const uploaded = await writer.media.upload(new Blob([png], { type: 'image/png' }), { filename: 'dot.png', altText: 'A dot' });
    expect(uploaded).toMatchObject({ originalFilename: 'dot.png', mimeType: 'image/png', width: 1, height: 1, altText: 'A dot' });
    expect(await reader.media.get(uploaded.id)).toEqual(uploaded);
    const posts = await reader.blog.posts.list({ limit: 1 });
    expect(posts).toEqual({ data: [], pagination: { total: 0, page: 1, limit: 1, totalPages: 0 } });
    expect((await reader.blog.categories.list()).data).toEqual([]);
    expect((await reader.blog.tags.list()).data).toEqual([]);
    expect((await reader.blog.authors.list()).data).toEqual([]);
    const missing = await caught(reader.blog.posts.get('nope'));
    expect(missing.code).toBe('NOT_FOUND');
  });

  it('GET /api/v1/admin/types.ts serves the same declarations to a signed-in member (a viewer is enough)', async () => {
    const viewer = await h.createUser('viewer');
    const cookie = await h.signIn(viewer.email);
    const res = await h.call('GET', '/api/v1/admin/types.ts', { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await res.text();
    expect(text).toBe((await h.t.run('schema.typescript', {})).text);
    expect(text).toContain('export interface CmsTypes {');
    const anonymous = await h.call('GET', '/api/v1/admin/types.ts');
    expect(anonymous.status).toBe(401);
  });
});
