import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CmsConfig } from '../../src/config.js';
import { createAppShared } from '../../src/http/app.js';
import { createResponseCache } from '../../src/http/cache.js';
import { createRateLimiter } from '../../src/http/rate-limit.js';
import type { AppShared } from '../../src/http/route.js';
import { createTestCms, settleEchoes, type TestCms } from '../helpers/engine.js';
import { serveOverSocket, type HttpClient } from '../helpers/http.js';

/**
 * The rate limit of the public API over a real socket (the fast path for cache hits in front of
 * h3), with a small limit: what is counted, per what, and the bound of the limiter's table
 * (docs/content-api.md, "Rate limits and CORS").
 */

const limit = { requests: 5, windowSeconds: 60 };

interface Site {
  t: TestCms;
  keys: { public: string; secret: string };
  close(): Promise<void>;
}

async function createSite(config: Partial<CmsConfig>): Promise<Site> {
  const t = await createTestCms({ config: { rateLimit: limit, ...config } });
  await t.run('schema.push', {
    pageTypes: [{ definition: { slug: 'landing', name: 'Landing', fields: [{ name: 'title', type: 'text' }] } }],
    collections: [],
    components: [],
  });
  const keys = {
    public: (await t.run('keys.create', { type: 'public' })).key as string,
    secret: (await t.run('keys.create', { type: 'secret', permissions: 'content:write' })).key as string,
  };
  await t.run('pages.create', { pageTypeSlug: 'landing', name: 'Home', slug: 'home', status: 'published', fields: { title: 'Home' } });
  await settleEchoes(t);
  return { t, keys, close: () => t.close() };
}

/** A GET with a key and, when given, the address a proxy would put in X-Forwarded-For. */
function get(client: HttpClient, path: string, key: string, options: { from?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return client.fetch(path, { headers: { 'x-api-key': key, ...(options.from ? { 'x-forwarded-for': options.from } : {}), ...options.headers } });
}

/** Each call a path no earlier request asked for: never in the response cache. */
let fresh = 0;
const uncached = () => `/api/v1/pages?page=1&limit=${++fresh}`;

describe('rate limits: answers from the response cache and 304s are not counted', () => {
  let site: Site;
  let client: HttpClient;
  beforeAll(async () => {
    site = await createSite({});
    client = await serveOverSocket(site.t.cms);
  });
  afterAll(async () => {
    await client.close();
    await site.close();
  });

  it('serves many cached reads and 304s of a public key without using up its budget, with the current state in RateLimit-*', async () => {
    const first = await get(client, '/api/v1/pages/home', site.keys.public);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-remaining')).toBe('4');
    const etag = first.headers.get('etag')!;
    for (let i = 0; i < 3 * limit.requests; i++) {
      const hit = await get(client, '/api/v1/pages/home', site.keys.public);
      expect(hit.status).toBe(200);
      // A cache hit shows the budget as it stands and takes nothing from it.
      expect(hit.headers.get('ratelimit-limit')).toBe('5');
      expect(hit.headers.get('ratelimit-remaining')).toBe('4');
      expect(Number(hit.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      const notModified = await get(client, '/api/v1/pages/home', site.keys.public, { headers: { 'if-none-match': etag } });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.get('ratelimit-remaining')).toBe('4');
    }
    // Uncached reads are counted: four more fit, the fifth is refused.
    for (const remaining of ['3', '2', '1', '0']) {
      const r = await get(client, uncached(), site.keys.public);
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-remaining')).toBe(remaining);
    }
    expect((await get(client, uncached(), site.keys.public)).status).toBe(429);
    // Over the limit, a cached answer and a 304 are still served.
    expect((await get(client, '/api/v1/pages/home', site.keys.public)).status).toBe(200);
    const late = await get(client, '/api/v1/pages/home', site.keys.public, { headers: { 'if-none-match': etag } });
    expect(late.status).toBe(304);
    expect(late.headers.get('ratelimit-remaining')).toBe('0');
  });

  it('does not count a 304 that was computed (the response cache turned off)', async () => {
    const shared: AppShared = { ...createAppShared(site.t.cms), cache: createResponseCache(site.t.cms, { enabled: false }) };
    const uncachedClient = await serveOverSocket(site.t.cms, { shared });
    try {
      const first = await get(uncachedClient, '/api/v1/pages/home', site.keys.public);
      expect(first.headers.get('ratelimit-remaining')).toBe('4');
      for (let i = 0; i < 2 * limit.requests; i++) {
        const r = await get(uncachedClient, '/api/v1/pages/home', site.keys.public, { headers: { 'if-none-match': first.headers.get('etag')! } });
        expect(r.status).toBe(304);
        expect(r.headers.get('ratelimit-remaining')).toBe('4');
      }
      // A 200 without the cache is counted.
      expect((await get(uncachedClient, '/api/v1/pages/home', site.keys.public)).headers.get('ratelimit-remaining')).toBe('3');
    } finally {
      await uncachedClient.close();
    }
  });
});

describe('rate limits: per key and client address for public keys, per key for secret keys', () => {
  let behindProxy: Site;
  let proxied: HttpClient;
  let direct: Site;
  let directClient: HttpClient;
  beforeAll(async () => {
    behindProxy = await createSite({ trustProxy: 1 });
    proxied = await serveOverSocket(behindProxy.t.cms);
    direct = await createSite({});
    directClient = await serveOverSocket(direct.t.cms);
  });
  afterAll(async () => {
    await proxied.close();
    await behindProxy.close();
    await directClient.close();
    await direct.close();
  });

  it('gives each client address its own budget of a public key when the proxy is trusted, and only then', async () => {
    const key = behindProxy.keys.public;
    for (let i = 0; i < limit.requests; i++) expect((await get(proxied, uncached(), key, { from: '198.51.100.1' })).status).toBe(200);
    const refused = await get(proxied, uncached(), key, { from: '198.51.100.1' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another visitor of the same website, same key: a budget of its own.
    const other = await get(proxied, uncached(), key, { from: '198.51.100.2' });
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-remaining')).toBe('4');
    // The client's own entries left of the proxy's are not believed: still the first visitor.
    expect((await get(proxied, uncached(), key, { from: '203.0.113.9, 198.51.100.1' })).status).toBe(429);
    // Cache hits (the fast path in front of h3) read the address the same way: each visitor sees its own budget.
    expect((await get(proxied, '/api/v1/pages/home', key, { from: '198.51.100.3' })).headers.get('ratelimit-remaining')).toBe('4');
    expect((await get(proxied, '/api/v1/pages/home', key, { from: '198.51.100.1' })).headers.get('ratelimit-remaining')).toBe('0');
    expect((await get(proxied, '/api/v1/pages/home', key, { from: '198.51.100.2' })).headers.get('ratelimit-remaining')).toBe('4');

    // Without a trusted proxy X-Forwarded-For is not believed: the socket's address counts.
    const directKey = direct.keys.public;
    for (let i = 0; i < limit.requests; i++) expect((await get(directClient, uncached(), directKey, { from: `198.51.100.${i + 1}` })).status).toBe(200);
    expect((await get(directClient, uncached(), directKey, { from: '198.51.100.77' })).status).toBe(429);
  });

  it('shares a secret key\'s budget across addresses (its cache hits still free)', async () => {
    const key = behindProxy.keys.secret;
    expect((await get(proxied, '/api/v1/pages/home', key, { from: '192.0.2.1' })).headers.get('ratelimit-remaining')).toBe('4');
    for (let i = 0; i < limit.requests; i++) {
      const hit = await get(proxied, '/api/v1/pages/home', key, { from: '192.0.2.2' });
      expect(hit.status).toBe(200);
      expect(hit.headers.get('ratelimit-remaining')).toBe('4');
    }
    for (const remaining of ['3', '2', '1', '0']) {
      expect((await get(proxied, uncached(), key, { from: '192.0.2.2' })).headers.get('ratelimit-remaining')).toBe(remaining);
    }
    const refused = await get(proxied, uncached(), key, { from: '192.0.2.3' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
  });
});

describe('rate limits: the limiter\'s table stays bounded', () => {
  let site: Site;
  beforeAll(async () => { site = await createSite({ trustProxy: 1 }); });
  afterAll(async () => { await site.close(); });

  it('never forgets a busy client\'s live window; newcomers over the bound share one budget per key; expired windows go first', async () => {
    let now = Date.now();
    const rateLimit = createRateLimiter(limit, { maxWindows: 4, now: () => now });
    const shared: AppShared = { ...createAppShared(site.t.cms), rateLimit };
    const client = await serveOverSocket(site.t.cms, { shared });
    const key = site.keys.public;
    try {
      for (let i = 0; i < limit.requests; i++) expect((await get(client, uncached(), key, { from: '198.51.100.1' })).status).toBe(200);
      expect((await get(client, uncached(), key, { from: '198.51.100.1' })).status).toBe(429);
      // Three more visitors fill the table; the next ones share the key's overflow budget of 5.
      const statuses: number[] = [];
      for (let i = 2; i <= 10; i++) statuses.push((await get(client, uncached(), key, { from: `198.51.100.${i}` })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
      // The busy visitor's window was kept: still refused.
      expect((await get(client, uncached(), key, { from: '198.51.100.1' })).status).toBe(429);
      // Four visitors' windows plus one overflow window per key.
      expect(rateLimit.size()).toBeLessThanOrEqual(5);
      // Once the windows end they are dropped first: a newcomer gets a window of its own again.
      now += limit.windowSeconds * 1000;
      const newcomer = await get(client, uncached(), key, { from: '198.51.100.200' });
      expect(newcomer.status).toBe(200);
      expect(newcomer.headers.get('ratelimit-remaining')).toBe('4');
      expect(rateLimit.size()).toBe(1);
    } finally {
      await client.close();
    }
  });
});
