import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'h3/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CmsConfig } from '../../src/config.js';
import { appRoutes, createApp, createAppShared } from '../../src/http/app.js';
import { createFastPath } from '../../src/http/node-server.js';
import { createTestCms, landingSchema, settleEchoes, type TestCms } from '../helpers/engine.js';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Header names in the order they were sent. */
  names: string[];
  body: Buffer;
}

/**
 * One engine, one AppShared, two servers: h3 alone, and h3 behind the fast path. `passedOn`
 * counts the requests the fast path left to h3, so a test knows which door answered.
 */
interface Pair {
  t: TestCms;
  /** A GET with the public key in X-API-Key, another key, or (null) none. */
  h3(path: string, headers?: Record<string, string>, key?: string | null): Promise<RawResponse>;
  fast(path: string, headers?: Record<string, string>, key?: string | null): Promise<RawResponse>;
  passedOn: () => number;
  keys: { public: string; secret: string; preview: string };
  write(method: string, path: string, body?: unknown): Promise<RawResponse>;
  close(): Promise<void>;
}

function rawRequest(url: string, method: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({
        status: res.statusCode!,
        headers: res.headers,
        names: res.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase()),
        body: Buffer.concat(chunks),
      }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function startPair(config: Partial<CmsConfig> = {}): Promise<Pair> {
  const t = await createTestCms({ config: { rateLimit: { requests: 100_000, windowSeconds: 60 }, ...config } });
  await t.run('schema.push', landingSchema);
  const pk = await t.run('keys.create', { type: 'public' });
  const keys = {
    public: pk.key as string,
    secret: (await t.run('keys.create', { type: 'secret', permissions: 'content:write' })).key as string,
    preview: (await t.run('keys.create', { type: 'preview' })).key as string,
  };
  const item = await t.run('items.create', { collectionTypeSlug: 'products', name: 'Rocket', slug: 'rocket', fields: { price: 10 }, status: 'published' });
  // Long enough to be compressed (the cache compresses bodies from 1 KB).
  const body = 'All about rockets. '.repeat(120);
  await t.run('pages.create', { pageTypeSlug: 'landing', name: 'Home', slug: 'home', status: 'published', fields: { title: 'Home', body, product: { _ref: item.id, _type: 'collectionItem' } } });
  await t.run('pages.create', { pageTypeSlug: 'landing', name: 'About', slug: 'about', status: 'published', fields: { title: 'About', body } });

  await settleEchoes(t);
  const shared = createAppShared(t.cms);
  const h3Handler = toNodeHandler(createApp(t.cms, { shared }));
  let passedOn = 0;
  const plain = createServer(h3Handler);
  const fronted = createServer(createFastPath(shared, appRoutes(), (req, res) => { passedOn++; return h3Handler(req, res); }));
  const plainUrl = await listen(plain);
  const frontedUrl = await listen(fronted);
  const close = (s: Server) => new Promise<void>((resolve) => { s.close(() => resolve()); s.closeAllConnections(); });
  return {
    t,
    keys,
    h3: (path, headers = {}, key = keys.public) => rawRequest(plainUrl + path, 'GET', { ...(key === null ? {} : { 'x-api-key': key }), ...headers }),
    fast: (path, headers = {}, key = keys.public) => rawRequest(frontedUrl + path, 'GET', { ...(key === null ? {} : { 'x-api-key': key }), ...headers }),
    passedOn: () => passedOn,
    write: (method, path, body) => rawRequest(plainUrl + path, method, {
      'x-api-key': keys.secret, 'idempotency-key': `${method} ${path} ${Math.random()}`, 'content-type': 'application/json',
    }, body === undefined ? undefined : JSON.stringify(body)),
    async close() {
      await close(plain);
      await close(fronted);
      await t.close();
    },
  };
}

/** Headers that differ between any two answers: the clock, the quota used, the seconds to the window's end. */
const perAnswer = new Set(['date', 'ratelimit-remaining', 'ratelimit-reset']);
const comparable = (r: RawResponse) => Object.fromEntries(Object.entries(r.headers).filter(([k]) => !perAnswer.has(k)));

describe('fast path for cached public reads', () => {
  let p: Pair;
  beforeAll(async () => { p = await startPair(); });
  afterAll(async () => { await p.close(); });

  const reads = [
    '/api/v1/pages',
    '/api/v1/pages?limit=1&sort=name',
    '/api/v1/pages/home',
    '/api/v1/pages/home?fields=title,product&media=url',
    '/api/v1/collections/products',
    '/api/v1/collections/products/rocket',
    '/api/v1/collections/products?filter[fields.price][gt]=5&sort=name',
    // Every public read of the route table takes the fast path, the blog's too.
    '/api/v1/blog/posts',
    '/api/v1/blog/tags?limit=5',
    '/api/v1/blog/authors',
  ];

  it('answers a hit with the same status, headers and bytes as the h3 route, in every encoding', async () => {
    for (const path of reads) {
      for (const encoding of [undefined, 'gzip', 'gzip, deflate, br']) {
        const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
        const what = `${path} (${encoding ?? 'identity'})`;
        const first = await p.h3(path, headers);
        expect(first.status, what).toBe(200);
        const viaH3 = await p.h3(path, headers);
        const before = p.passedOn();
        const viaFast = await p.fast(path, headers);
        expect(p.passedOn(), `${what} was answered by the fast path`).toBe(before);
        expect(viaFast.status, what).toBe(viaH3.status);
        expect(comparable(viaFast), what).toEqual(comparable(viaH3));
        expect(viaFast.names, what).toEqual(viaH3.names);
        expect(viaFast.body.equals(viaH3.body), what).toBe(true);
        // The same limiter: neither hit took from the key's quota, both show it as it stands.
        expect(viaFast.headers['ratelimit-remaining'], what).toBe(viaH3.headers['ratelimit-remaining']);
        expect(Math.abs(Number(viaFast.headers['ratelimit-reset']) - Number(viaH3.headers['ratelimit-reset'])), what).toBeLessThanOrEqual(1);
      }
    }
    const compressed = await p.fast('/api/v1/pages/home', { 'accept-encoding': 'br' });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers.vary).toBe('Accept-Encoding, X-Preview-Key, X-API-Key');
    expect(compressed.headers['access-control-allow-origin']).toBe('*');
    expect(compressed.headers['content-length']).toBe(String(compressed.body.length));
  });

  it('answers a public key in the query string from the cache too', async () => {
    const path = `/api/v1/pages/about?fields=title&api_key=${p.keys.public}`;
    await p.h3(path, {}, null);
    const viaH3 = await p.h3(path, {}, null);
    const before = p.passedOn();
    const viaFast = await p.fast(path, {}, null);
    expect(p.passedOn()).toBe(before);
    expect(viaFast.status).toBe(200);
    expect(comparable(viaFast)).toEqual(comparable(viaH3));
    expect(viaFast.body.equals(viaH3.body)).toBe(true);
  });

  it('answers If-None-Match with 304 on single reads, and never on lists', async () => {
    for (const path of ['/api/v1/pages/home', '/api/v1/collections/products/rocket']) {
      const { headers } = await p.h3(path);
      const etag = headers.etag as string;
      const viaH3 = await p.h3(path, { 'if-none-match': etag });
      const before = p.passedOn();
      const viaFast = await p.fast(path, { 'if-none-match': `W/${etag}` });
      expect(p.passedOn()).toBe(before);
      expect(viaFast.status).toBe(304);
      expect(viaFast.body.length).toBe(0);
      expect(comparable(viaFast)).toEqual(comparable(viaH3));
      expect(viaFast.headers.etag).toBe(etag);
    }
    const list = await p.h3('/api/v1/pages');
    const again = await p.fast('/api/v1/pages', { 'if-none-match': list.headers.etag as string });
    expect(again.status).toBe(200);
    expect(again.body.equals(list.body)).toBe(true);
  });

  it('leaves misses, previews, anonymous requests and secret keys in the query to h3', async () => {
    const cases: Array<[string, Record<string, string>, string | null, number]> = [
      ['/api/v1/pages/home?fields=body', {}, p.keys.public, 200],
      ['/api/v1/pages/home', { 'x-preview-key': p.keys.preview }, p.keys.public, 200],
      ['/api/v1/pages/home?preview=' + p.keys.preview, {}, p.keys.public, 200],
      ['/api/v1/pages/home', { 'x-preview-key': 'preview_nope' }, p.keys.public, 401],
      ['/api/v1/pages/home', {}, null, 401],
      ['/api/v1/pages/home', {}, '', 401],
      ['/api/v1/pages/home', {}, 'svc_pk_unknown', 401],
      [`/api/v1/pages/home?api_key=${p.keys.secret}`, {}, null, 401],
      ['/api/v1/pages/nowhere', {}, p.keys.public, 404],
    ];
    await p.h3('/api/v1/pages/home');
    for (const [path, headers, key, status] of cases) {
      const before = p.passedOn();
      const r = await p.fast(path, headers, key);
      expect(p.passedOn(), path).toBe(before + 1);
      expect(r.status, `${path} ${JSON.stringify(headers)} ${key}`).toBe(status);
    }
    const preview = await p.fast('/api/v1/pages/home', { 'x-preview-key': p.keys.preview });
    expect(preview.headers['cache-control']).toBe('private, no-store, max-age=0');
  });

  it('refuses a revoked key on the next request', async () => {
    const key = await p.t.run('keys.create', { type: 'public' });
    await p.h3('/api/v1/pages/home', {}, key.key);
    const before = p.passedOn();
    expect((await p.fast('/api/v1/pages/home', {}, key.key)).status).toBe(200);
    expect(p.passedOn()).toBe(before);
    await p.t.run('keys.revoke', { id: key.id });
    const refused = await p.fast('/api/v1/pages/home', {}, key.key);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body.toString('utf8')).error.code).toBe('UNAUTHORIZED');
    expect(p.passedOn()).toBe(before + 1);
  });

  it('is invalidated by a write: the next read goes to h3 and shows it, then hits again', async () => {
    const read = async () => {
      const r = await p.fast('/api/v1/pages/about');
      return JSON.parse(r.body.toString('utf8')).data.fields.title as string;
    };
    /** The next read goes to h3 and shows `title`; a later one is answered from the cache again. */
    const expectInvalidated = async (title: string) => {
      const before = p.passedOn();
      expect(await read()).toBe(title);
      expect(p.passedOn()).toBeGreaterThan(before);
      // On PostgreSQL the engine also hears its own write back through NOTIFY, a moment later,
      // and drops the entry once more: wait for a hit rather than expect the very next read.
      for (let attempt = 0; attempt < 50; attempt++) {
        const now = p.passedOn();
        expect(await read()).toBe(title);
        if (p.passedOn() === now) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error('the fast path never answered from the cache again');
    };
    await p.h3('/api/v1/pages/about');
    const before = p.passedOn();
    expect(await read()).toBe('About');
    expect(p.passedOn()).toBe(before);
    const w = await p.write('PUT', '/api/v1/pages/about', { fields: { title: 'About us' } });
    expect(w.status).toBe(200);
    expect((await p.write('POST', '/api/v1/pages/about/publish')).status).toBe(200);
    await expectInvalidated('About us');
    // Writes through the engine itself (the CLI door) invalidate the same way.
    await p.t.run('pages.update', { ref: { slug: 'about' }, fields: { title: 'About, again' } });
    await p.t.run('pages.publish', { ref: { slug: 'about' } });
    await expectInvalidated('About, again');
  });
});

describe('fast path and the rate limit', () => {
  let p: Pair;
  beforeAll(async () => { p = await startPair({ rateLimit: { requests: 3, windowSeconds: 60 } }); });
  afterAll(async () => { await p.close(); });

  it('never counts its answers against the key, answers hits over the limit, and leaves the refusal of misses to h3', async () => {
    expect((await p.h3('/api/v1/pages/home')).headers['ratelimit-remaining']).toBe('2');
    const before = p.passedOn();
    for (let i = 0; i < 5; i++) expect((await p.fast('/api/v1/pages/home')).headers['ratelimit-remaining']).toBe('2');
    expect(p.passedOn()).toBe(before);
    expect((await p.fast('/api/v1/pages/about')).headers['ratelimit-remaining']).toBe('1');
    expect((await p.fast('/api/v1/pages')).headers['ratelimit-remaining']).toBe('0');
    const limited = await p.fast('/api/v1/collections/products');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(JSON.parse(limited.body.toString('utf8')).error.code).toBe('RATE_LIMITED');
    const hit = await p.fast('/api/v1/pages/home');
    expect(hit.status).toBe(200);
    expect(hit.headers['ratelimit-remaining']).toBe('0');
  });
});
