import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages } from '../../src/db/schema/index.js';
import { createCms } from '../../src/runtime.js';
import { testDriver } from '../helpers/db.js';
import { serveOverSocket } from '../helpers/http.js';
import { createContentHarness, doorNames, type ContentHarness, type JsonResponse } from './support.js';

const publicCacheControl = 'public, max-age=900, stale-while-revalidate=1800';
const vary = 'Accept-Encoding, X-Preview-Key, X-API-Key';

/** Cache headers, ETag and 304, the response cache and its invalidation, compression. */
describe('caching', () => {
  let h: ContentHarness;

  beforeAll(async () => {
    h = await createContentHarness();
    await h.createPage({ name: 'Cached', slug: 'cached', status: 'published', fields: { title: 'Cached', summary: 'x'.repeat(3000) } });
    await h.createPage({ name: 'Other', slug: 'other', status: 'published', fields: { title: 'Other' } });
    await h.createItem('products', { name: 'Widget', slug: 'widget', status: 'published', fields: { price: 1 } });
  });
  afterAll(async () => { await h.close(); });

  /** Renames a page behind the engine's back: no write, so no invalidation. */
  const renameUnderneath = (slug: string, name: string) => h.t.cms.db.update(pages).set({ name }).where(eq(pages.slug, slug));
  const nameOf = async (r: JsonResponse) => (await r.json()).data.name;

  for (const door of doorNames) {
    describe(door, () => {
      const get = (path: string, headers: Record<string, string> = {}) => h.get(path, { door, headers });

      it('sends the exact Cache-Control and Vary headers and an ETag on every public read', async () => {
        for (const path of ['/api/v1/pages', '/api/v1/pages/cached', '/api/v1/collections/products', '/api/v1/collections/products/widget']) {
          const r = await get(path);
          expect(r.status, path).toBe(200);
          expect(r.headers.get('cache-control'), path).toBe(publicCacheControl);
          expect(r.headers.get('vary'), path).toBe(vary);
          expect(r.headers.get('etag'), path).toMatch(/^"[^"]+"$/);
          expect(r.headers.get('content-type')).toMatch(/^application\/json/);
        }
      });

      it('marks error answers no-store, so that no cache in between keeps a 404 past the publish', async () => {
        const cases: Array<[string, Record<string, string>, number]> = [
          ['/api/v1/pages/not-yet', {}, 404],
          ['/api/v1/pages?limit=101', {}, 400],
          ['/api/v1/pages/cached', { 'x-preview-key': 'preview_nope' }, 401],
          ['/api/v1/no-such-route', {}, 404],
        ];
        for (const [path, headers, status] of cases) {
          const r = await get(path, headers);
          expect(r.status, path).toBe(status);
          expect(r.headers.get('cache-control'), path).toBe('no-store');
        }
      });

      it('keeps the ETag while nothing changes, and it differs between representations', async () => {
        const a = (await get('/api/v1/pages/cached')).headers.get('etag');
        const b = (await get('/api/v1/pages/cached')).headers.get('etag');
        const c = (await get('/api/v1/pages/cached?fields=title')).headers.get('etag');
        const d = (await get('/api/v1/pages/cached?media=url&fields=summary')).headers.get('etag');
        expect(a).toBe(b);
        expect(new Set([a, c, d]).size).toBe(3);
      });

      it('answers If-None-Match with 304 on single reads', async () => {
        for (const path of ['/api/v1/pages/cached', '/api/v1/collections/products/widget']) {
          const etag = (await get(path)).headers.get('etag')!;
          for (const header of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
            const r = await get(path, { 'if-none-match': header });
            expect(r.status, header).toBe(304);
            expect(await r.text()).toBe('');
            expect(r.headers.get('etag')).toBe(etag);
            expect(r.headers.get('cache-control')).toBe(publicCacheControl);
            expect(r.headers.get('vary')).toBe(vary);
          }
          const miss = await get(path, { 'if-none-match': '"something-else"' });
          expect(miss.status).toBe(200);
          expect((await miss.json()).data.slug).toBeTruthy();
        }
      });

      it('never answers 304 on lists, even with a matching tag', async () => {
        for (const path of ['/api/v1/pages', '/api/v1/collections/products']) {
          const etag = (await get(path)).headers.get('etag')!;
          for (const header of [etag, '*']) {
            const r = await get(path, { 'if-none-match': header });
            expect(r.status).toBe(200);
            expect(r.headers.get('etag')).toBe(etag);
            expect((await r.json()).data.length).toBeGreaterThan(0);
          }
        }
      });
    });
  }

  it('serves public reads from its cache', async () => {
    expect(await nameOf(await h.get('/api/v1/pages/other'))).toBe('Other');
    await renameUnderneath('other', 'Renamed underneath');
    expect(await nameOf(await h.get('/api/v1/pages/other'))).toBe('Other');
    // A query the cache has not seen reads the database.
    expect(await nameOf(await h.get('/api/v1/pages/other?fields=title'))).toBe('Renamed underneath');
    await h.t.cms.db.update(pages).set({ name: 'Other' }).where(eq(pages.slug, 'other'));
  });

  it('keys entries by the normalised query: parameter order does not matter, credentials are not part of it', async () => {
    await h.get('/api/v1/pages/other?fields=title&media=url');
    await renameUnderneath('other', 'Renamed again underneath');
    expect(await nameOf(await h.get('/api/v1/pages/other?media=url&fields=title'))).toBe('Other');
    expect(await nameOf(await h.get(`/api/v1/pages/other?media=url&api_key=${h.keys.public}&fields=title`, { key: null }))).toBe('Other');
    // refTypes is part of it.
    expect(await nameOf(await h.get('/api/v1/pages/other?media=url&fields=title&refTypes=false'))).toBe('Renamed again underneath');
    await h.t.cms.db.update(pages).set({ name: 'Other' }).where(eq(pages.slug, 'other'));
  });

  it('is invalidated by every write, whatever it touches', async () => {
    const writes: Array<[string, () => Promise<JsonResponse>]> = [
      ['create page', () => h.write('POST', '/api/v1/pages', { pageTypeSlug: 'article', name: 'New', slug: 'inv-new' })],
      ['update page', () => h.write('PUT', '/api/v1/pages/inv-new', { name: 'Newer' })],
      ['publish page', () => h.write('POST', '/api/v1/pages/inv-new/publish')],
      ['unpublish page', () => h.write('POST', '/api/v1/pages/inv-new/unpublish')],
      ['delete page', () => h.write('DELETE', '/api/v1/pages/inv-new')],
      ['create item', () => h.write('POST', '/api/v1/collections/categories', { name: 'C', slug: 'inv-c', fields: { label: 'C' } })],
      ['update item', () => h.write('PUT', '/api/v1/collections/categories/inv-c', { name: 'C2' })],
      ['publish item', () => h.write('POST', '/api/v1/collections/categories/inv-c/publish')],
      ['unpublish item', () => h.write('POST', '/api/v1/collections/categories/inv-c/unpublish')],
      ['delete item', () => h.write('DELETE', '/api/v1/collections/categories/inv-c')],
    ];
    let n = 0;
    for (const [what, write] of writes) {
      const marker = `Marker ${++n}`;
      // Prime the cache (single, list, collection), change the data underneath, then write.
      await h.get('/api/v1/pages/cached');
      await h.get('/api/v1/pages?sort=slug');
      await h.get('/api/v1/collections/products');
      await renameUnderneath('cached', marker);
      expect(await nameOf(await h.get('/api/v1/pages/cached')), what).not.toBe(marker);
      const r = await write();
      expect(r.status, `${what}: ${await r.clone().text()}`).toBeLessThan(300);
      expect(await nameOf(await h.get('/api/v1/pages/cached')), what).toBe(marker);
      const list = await (await h.get('/api/v1/pages?sort=slug')).json();
      expect(list.data.find((p: any) => p.slug === 'cached').name, what).toBe(marker);
    }
  });

  it('keeps list totals exact across writes', async () => {
    const total = async (q: string) => (await (await h.get(`/api/v1/pages?limit=1&${q}`)).json()).pagination.total as number;
    const before = await total('sort=slug');
    const beforeArticles = await total('pageType=article');
    await h.createPage({ pageTypeSlug: 'article', name: 'Counted', slug: 'counted', status: 'published' });
    expect(await total('sort=slug')).toBe(before + 1);
    expect(await total('pageType=article')).toBe(beforeArticles + 1);
    expect((await h.write('POST', '/api/v1/pages/counted/unpublish')).status).toBe(200);
    expect(await total('sort=slug')).toBe(before);
    expect((await h.write('POST', '/api/v1/pages/counted/publish')).status).toBe(200);
    expect(await total('sort=-slug')).toBe(before + 1);
    expect((await h.write('DELETE', '/api/v1/pages/counted')).status).toBe(200);
    expect(await total('sort=slug')).toBe(before);
    expect(await total('pageType=article')).toBe(beforeArticles);
  });

  it('changes the ETag when a write changes the page, so the old tag gets a fresh 200', async () => {
    const before = await h.get('/api/v1/pages/other');
    const etag = before.headers.get('etag')!;
    expect((await h.write('PUT', '/api/v1/pages/other', { fields: { title: 'Other, edited' } })).status).toBe(200);
    expect((await h.write('POST', '/api/v1/pages/other/publish')).status).toBe(200);
    const after = await h.get('/api/v1/pages/other', { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect((await after.json()).data.fields.title).toBe('Other, edited');
  });

  it('is invalidated by writes through the engine itself (the CLI door) and the CLI bridge of cms serve', async () => {
    const bridge = await serveOverSocket(h.t.cms, { cliToken: 'test-token' });
    try {
      const read = async () => nameOf(await bridge.fetch('/api/v1/pages/other', { headers: { 'x-api-key': h.keys.public } }));
      expect(await read()).toBe('Other');
      await h.t.run('pages.update', { ref: { slug: 'other' }, name: 'Renamed by the CLI' });
      expect(await read()).toBe('Renamed by the CLI');
      const r = await bridge.fetch('/api/v1/_cli/run', {
        method: 'POST',
        headers: { authorization: 'Bearer test-token', 'content-type': 'application/json' },
        body: JSON.stringify({ op: 'pages.update', input: { ref: { slug: 'other' }, name: 'Renamed through the bridge' } }),
      });
      expect(r.status).toBe(200);
      expect(await read()).toBe('Renamed through the bridge');
    } finally {
      await bridge.close();
    }
  });

  if (testDriver === 'postgres') {
    it('is invalidated by a write through another engine on the same PostgreSQL database', async () => {
      const other = await createCms(h.t.config);
      const otherHttp = await serveOverSocket(other);
      try {
        const readA = async () => nameOf(await h.get('/api/v1/pages/cached'));
        const before = await readA();
        expect(await readA()).toBe(before);
        // Engine A hears of B's commit through NOTIFY; wait for that, not for a clock.
        const heard = new Promise<void>((resolve) => h.t.cms.events.once('content-changed', () => resolve()));
        const r = await otherHttp.fetch('/api/v1/pages/cached', {
          method: 'PUT',
          headers: { 'x-api-key': h.keys.secret, 'idempotency-key': 'engine-b-1', 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Written by engine B' }),
        });
        expect(r.status).toBe(200);
        await heard;
        expect(await readA()).toBe('Written by engine B');
      } finally {
        await otherHttp.close();
        await other.close();
      }
    });
  }

  describe('with the response cache off', () => {
    let off: ContentHarness;
    beforeAll(async () => {
      off = await createContentHarness({ config: { cache: false } });
      await off.createPage({ name: 'Fresh', slug: 'fresh', fields: { title: 'T' }, status: 'published' });
    });
    afterAll(async () => { await off.close(); });

    it('reads the database every time, with the same headers, ETag and 304', async () => {
      const first = await off.get('/api/v1/pages/fresh');
      const etag = first.headers.get('etag')!;
      expect(first.headers.get('cache-control')).toBe(publicCacheControl);
      expect(first.headers.get('vary')).toBe(vary);
      expect((await off.get('/api/v1/pages/fresh', { headers: { 'if-none-match': etag } })).status).toBe(304);
      await off.t.cms.db.update(pages).set({ name: 'Changed' }).where(eq(pages.slug, 'fresh'));
      const second = await off.get('/api/v1/pages/fresh', { headers: { 'if-none-match': etag } });
      expect(second.status).toBe(200);
      expect(await nameOf(second)).toBe('Changed');
    });
  });

  describe('compression', () => {
    /** A raw request, so the body arrives as sent (fetch would decode it). */
    const raw = (path: string, acceptEncoding?: string) => new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const req = request(h.http.url + path, { headers: { 'x-api-key': h.keys.public, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });

    it('compresses JSON with gzip or brotli by Accept-Encoding', async () => {
      const plain = await raw('/api/v1/pages/cached');
      expect(plain.headers['content-encoding']).toBeUndefined();
      const expected = JSON.parse(plain.body.toString('utf8'));
      expect(expected.data.slug).toBe('cached');

      const gz = await raw('/api/v1/pages/cached', 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.headers.vary).toBe(vary);
      expect(gz.body.length).toBeLessThan(plain.body.length);
      expect(JSON.parse(gunzipSync(gz.body).toString('utf8'))).toEqual(expected);

      const br = await raw('/api/v1/pages/cached', 'gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(expected);

      const list = await raw('/api/v1/pages', 'br');
      expect(list.headers['content-encoding']).toBe('br');
      expect(JSON.parse(brotliDecompressSync(list.body).toString('utf8')).pagination.total).toBeGreaterThan(0);
    });

    it('honours q-values and identity', async () => {
      const noBr = await raw('/api/v1/pages/cached', 'br;q=0, gzip');
      expect(noBr.headers['content-encoding']).toBe('gzip');
      const identity = await raw('/api/v1/pages/cached', 'identity');
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(identity.body.toString('utf8')).data.slug).toBe('cached');
      const none = await raw('/api/v1/pages/cached', 'gzip;q=0, br;q=0');
      expect(none.headers['content-encoding']).toBeUndefined();
    });
  });
});
