import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCms, type TestCms } from '../helpers/engine.js';
import { serveOverSocket } from '../helpers/http.js';
import { rawExchange, rawRequest, type RawAnswer } from './raw.js';

/**
 * Thousands of odd requests (paths, hosts, headers, query strings, bodies, and bytes Node's parser
 * refuses), sent raw over sockets to a real server. Seeded, so a failure is reproduced with the
 * seed it prints: FUZZ_SEED=<n> (and FUZZ_REQUESTS=<count>) npx vitest run test/http/fuzz.test.ts
 */
const seed = Number(process.env.FUZZ_SEED ?? 20261123);
const total = Number(process.env.FUZZ_REQUESTS ?? 3000);
const concurrency = 8;

/** mulberry32: a small PRNG that gives the same sequence for the same seed. */
function prng(s: number) {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** UTF-8 text as a byte string (one char per byte), the way the request head is written. */
const bytes = (s: string) => Buffer.from(s, 'utf8').toString('latin1');

interface Fixture {
  port: number;
  keys: { public: string; secret: string; preview: string };
  cookie: string;
  pageId: string;
  mediaPath: string;
}

interface Case { request: Buffer; summary: string; head: boolean }

function makeCases(f: Fixture, count: number, rnd: () => number): Case[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const chance = (p: number) => rnd() < p;
  const oddSegments = [
    '%00', 'a%00b', '%zz', '%', '..', '.', '%2e%2e', '%2F', '%C0%AF', '%ff', '~', ';a=b', '\\', '{}', '[]', 'null', 'undefined',
    '-1', '1e999', '00000000-0000-4000-8000-000000000000', 'not-a-uuid', 'x'.repeat(3000), bytes('é'), bytes('日本'), '%F0%9F%92%A9',
    'home', 'about', 'rocket', 'A-B', 'a--b', '%E2%80%AE', '*', '%20', '+', "'", '"', '<script>',
  ];
  const segment = () => (chance(0.35) ? pick(['home', 'about', 'rocket', 'products', 'landing', f.pageId]) : pick(oddSegments));
  const paths = [
    () => '/api/v1/health', () => '/api/v1/pages', () => `/api/v1/pages/${segment()}`, () => `/api/v1/pages/${segment()}/publish`,
    () => `/api/v1/pages/${segment()}/unpublish`, () => `/api/v1/collections/${segment()}`, () => `/api/v1/collections/${segment()}/${segment()}`,
    () => '/api/v1/blog/posts', () => `/api/v1/blog/posts/${segment()}`, () => '/api/v1/blog/tags', () => '/api/v1/blog/categories',
    () => '/api/v1/blog/authors', () => '/api/v1/media', () => `/api/v1/media/${segment()}`, () => f.mediaPath, () => `/api/v1/media/${segment()}/${segment()}`,
    () => '/api/v1/admin/auth/login', () => '/api/v1/admin/auth/me', () => '/api/v1/admin/auth/logout', () => '/api/v1/admin/pages',
    () => `/api/v1/admin/pages/${segment()}`, () => `/api/v1/admin/pages/${segment()}/versions`, () => '/api/v1/admin/page-types',
    () => `/api/v1/admin/page-types/${segment()}`, () => '/api/v1/admin/collection-items', () => '/api/v1/admin/webhooks',
    () => `/api/v1/admin/webhooks/${segment()}`, () => '/api/v1/admin/migrations', () => '/api/v1/admin/keys', () => '/api/v1/admin/media',
    () => '/api/v1/admin/blog/posts', () => '/api/v1/admin/blog/tags', () => '/api/v1/admin/members', () => '/api/v1/_cli/run',
    () => '/', () => '/admin', () => '*', () => `http://127.0.0.1:${f.port}/api/v1/pages`, () => 'http://x:99999/api/v1/health',
    () => '/api/v1/a/../health', () => '//api//v1//pages', () => '/api/v1/./pages/../pages', () => `/api/v1/${segment()}`, () => segment(),
  ];
  const values = [
    '', '0', '-1', '1', '1.5', 'abc', '99999999999999999999', '1e400', '%00', 'a%00b', '%zz', '%', '+', '%2B', 'true', 'false',
    'name', '-name', 'fields.price', '-fields.price', 'fields.a.b.c', ',,', '-', 'title,seo.metaTitle', 'url', 'object',
    encodeURIComponent('日本'), 'x'.repeat(2000), '[', ']', '%5B%5D', 'null', '2026-01-01', 'products', 'home',
  ];
  const names = [
    'page', 'limit', 'sort', 'fields', 'media', 'refTypes', 'preview', 'pageType', 'filter[pageTypeId]', 'filter[name]',
    'filter[fields.price][gt]', 'filter[fields.price][in]', 'filter[slug][contains]', 'filter[', 'filter[fields.a.b.c]', 'filter[%00]',
    'category', 'tag', 'author', 'force', 'status', 'search', '%00', '[]', 'a[b][c][d]', '', 'api_key',
  ];
  const query = () => {
    const n = Math.floor(rnd() * 5);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) {
      const name = pick(names);
      parts.push(name === 'api_key' ? `api_key=${pick([f.keys.public, f.keys.secret, 'svc_pk_nope', '%00'])}` : `${name}=${pick(values)}`);
    }
    if (chance(0.05)) parts.push(pick(['&&&', '=', '%', '#frag', '?', 'a=1&a=2&a=3']));
    return parts.length ? `?${parts.join('&')}` : '';
  };
  const hosts = [
    'x:99999', '[::1]', '[zz]', '', '_', 'a:', ':80', bytes('é.com'), '127.0.0.1:0', 'localhost:65535', 'h'.repeat(1000),
    'ex ample', 'a..b', '-a-', '1.2.3.4.5', '[::1]:99999', 'localhost:-1', 'localhost:abc',
  ];
  const jsonBodies = [
    () => JSON.stringify({ pageTypeSlug: 'landing', name: `Fuzz ${Math.floor(rnd() * 1e9)}`, slug: `fuzz-${Math.floor(rnd() * 1e9)}`, fields: { title: 'x' } }),
    () => JSON.stringify({ name: 'a\u0000b', slug: 'nul', pageTypeSlug: 'landing' }),
    () => JSON.stringify({ email: 'a\u0000@example.test', password: 'x' }),
    () => JSON.stringify({ email: 'nobody@example.test', password: 'wrong' }),
    () => JSON.stringify({ fields: { title: 'a\u0000', priority: 1e308 }, seo: { metaTitle: '\u0000' } }),
    () => JSON.stringify({ ['k\u0000']: 1 }),
    () => JSON.stringify({ ids: [f.pageId, 'x', null, 1] }),
    () => JSON.stringify({ url: 'http://127.0.0.1:1/hook', events: ['page.published'], headers: { 'x-a': '\u0000' } }),
    () => JSON.stringify({ slug: 'widgets', name: 'W', fields: [{ name: 'a', type: 'nope' }] }),
    () => JSON.stringify({ op: 'pages.list', input: {} }),
    () => '[' .repeat(5000) + ']'.repeat(5000),
    () => `{"a":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`,
    () => '{"name": "\\ud800"}', () => '{"name": "\\u0000"}', () => '{"a":', () => 'null', () => '[]', () => '"str"', () => '1e400',
    () => '\ufeff{"name":"bom"}', () => 'x'.repeat(200_000), () => '', () => '{"version": 99999999999999999999}',
    () => JSON.stringify({ name: 'x'.repeat(100_000) }), () => '--b\r\nContent-Disposition: form-data; name="file"\r\n\r\nhi\r\n--b--\r\n',
  ];
  /** A request that gets past authentication to the operation, with one odd part. */
  const plausible = (): Case => {
    const kind = pick(['read', 'read', 'write', 'admin-read', 'admin-write', 'login'] as const);
    const headers: Array<[string, string]> = [['Connection', 'close'], ['Host', `127.0.0.1:${f.port}`]];
    let method = 'GET';
    let target: string;
    let body: string | undefined;
    if (kind === 'read') {
      headers.push(['X-API-Key', f.keys.public]);
      target = pick(['/api/v1/pages', '/api/v1/pages/home', '/api/v1/collections/products', '/api/v1/collections/products/rocket',
        '/api/v1/blog/posts', '/api/v1/blog/tags', '/api/v1/blog/categories', '/api/v1/blog/authors', `/api/v1/pages/${segment()}`]) + query();
    } else if (kind === 'write') {
      method = pick(['POST', 'PUT', 'DELETE', 'POST']);
      headers.push(['X-API-Key', f.keys.secret], ['Idempotency-Key', `k-${Math.floor(rnd() * 1e9)}`], ['Content-Type', 'application/json']);
      target = method === 'POST'
        ? pick(['/api/v1/pages', '/api/v1/collections/products', '/api/v1/pages/home/publish', `/api/v1/pages/${segment()}/publish`])
        : pick(['/api/v1/pages/home', '/api/v1/pages/about', `/api/v1/pages/${segment()}`, '/api/v1/collections/products/rocket']);
      if (method !== 'DELETE') body = pick(jsonBodies)();
      else target += pick(['', '?force=true', '?force=%00']);
    } else if (kind === 'admin-read') {
      headers.push(['Cookie', f.cookie]);
      target = pick(['/api/v1/admin/pages', '/api/v1/admin/collection-items', '/api/v1/admin/media', '/api/v1/admin/webhooks', '/api/v1/admin/migrations',
        '/api/v1/admin/blog/posts', '/api/v1/admin/blog/tags', '/api/v1/admin/blog/authors', '/api/v1/admin/keys', '/api/v1/admin/page-types',
        `/api/v1/admin/pages/${f.pageId}`, `/api/v1/admin/pages/${segment()}`, '/api/v1/admin/auth/me']) + query();
    } else if (kind === 'admin-write') {
      method = pick(['POST', 'PUT', 'DELETE']);
      headers.push(['Cookie', f.cookie], ['Content-Type', 'application/json']);
      target = method === 'POST'
        ? pick(['/api/v1/admin/pages', '/api/v1/admin/webhooks', '/api/v1/admin/page-types', '/api/v1/admin/blog/tags', '/api/v1/admin/pages/bulk/publish',
          `/api/v1/admin/pages/${f.pageId}/clone`, '/api/v1/admin/keys', '/api/v1/admin/migrations'])
        : pick([`/api/v1/admin/pages/${f.pageId}`, `/api/v1/admin/pages/${segment()}`, '/api/v1/admin/page-types/landing', `/api/v1/admin/blog/tags/${segment()}`]);
      if (method !== 'DELETE') body = pick(jsonBodies)();
    } else {
      method = 'POST';
      headers.push(['Content-Type', 'application/json']);
      target = '/api/v1/admin/auth/login';
      body = pick(jsonBodies)();
    }
    const chunked = body !== undefined && chance(0.25);
    return {
      request: rawRequest(method, target, headers, body === undefined ? undefined : Buffer.from(body, 'utf8'), { chunked }),
      summary: `${method} ${target.slice(0, 200)} [${kind}]${body === undefined ? '' : ` body ${body.slice(0, 80)}${chunked ? ' (chunked)' : ''}`}`,
      head: false,
    };
  };
  const cases: Case[] = [];
  for (let i = 0; i < count; i++) {
    if (chance(0.35)) {
      cases.push(plausible());
      continue;
    }
    const r = rnd();
    const method = r < 0.45 ? 'GET' : r < 0.65 ? 'POST' : r < 0.75 ? 'PUT' : r < 0.83 ? 'DELETE' : r < 0.86 ? 'PATCH' : r < 0.9 ? 'OPTIONS' : r < 0.95 ? 'HEAD' : pick(['FOO', 'get', 'M-SEARCH', 'PROPFIND', 'CONNECT', 'TRACE']);
    const target = pick(paths)() + query();
    const upgrade = chance(0.02);
    const headers: Array<[string, string]> = upgrade ? [['Connection', 'Upgrade, close'], ['Upgrade', pick(['websocket', 'h2c', 'garbage'])]] : [['Connection', 'close']];
    if (!chance(0.05)) headers.push(['Host', chance(0.7) ? `127.0.0.1:${f.port}` : pick(hosts)]);
    if (chance(0.02)) headers.push(['Host', 'second.example']);
    if (chance(0.5)) headers.push(['X-API-Key', pick([f.keys.public, f.keys.public, f.keys.secret, f.keys.secret, f.keys.preview, 'svc_pk_nope', 'svc_sk_nope', 'garbage', ''])]);
    if (chance(0.1)) headers.push(['X-Preview-Key', pick([f.keys.preview, 'preview_nope', f.keys.public, ''])]);
    if (chance(0.35)) headers.push(['Cookie', pick([f.cookie, f.cookie, 'cms_session=%', 'cms_session=%00', 'cms_session=a%zz', 'cms_session=', 'a=b; cms_session', `${f.cookie}; x=%`, 'cms_session=' + 'x'.repeat(500)])]);
    if (chance(0.6)) headers.push(['Content-Type', pick(['application/json', 'application/json; charset=utf-8', 'multipart/form-data', 'multipart/form-data; boundary=b', 'text/plain', 'garbage', ''])]);
    if (chance(0.4)) headers.push(['Idempotency-Key', pick([`k-${Math.floor(rnd() * 1e9)}`, '', 'x'.repeat(300), '%00', 'same-key'])]);
    if (chance(0.08)) headers.push(['If-Match', pick(['"1"', 'abc', '"-1"', '"99999999999999999999"', '*', '""'])]);
    if (chance(0.08)) headers.push(['If-None-Match', pick(['*', 'W/"x"', '"abc", "def"', ''])]);
    if (chance(0.15)) headers.push(['Accept-Encoding', pick(['gzip', 'br', 'gzip, deflate, br', 'garbage', '*;q=0', 'identity;q=0'])]);
    if (chance(0.08)) headers.push(['Range', pick(['bytes=0-10', 'bytes=-5', 'bytes=9-1', 'bytes=0-0,5-6', 'garbage', 'bytes=99999999999999999999-'])]);
    if (chance(0.08)) headers.push(['Origin', pick(['http://evil.example', 'null', `http://127.0.0.1:${f.port}`, 'garbage'])]);
    if (chance(0.1)) headers.push(['X-Project', pick(['default', 'nope', '', 'x'.repeat(300)])]);
    if (chance(0.05)) headers.push(['X-Forwarded-For', pick(['1.2.3.4', 'garbage', '', '::1, 10.0.0.1'])]);
    if (chance(0.05)) headers.push(['X-Forwarded-Host', pick(['x:99999', 'evil.example', ''])]);
    // What Node's parser itself refuses.
    if (chance(0.015)) headers.push(['X-Bad', 'a\u0001b']);
    if (chance(0.01)) headers.push(['Bad Name', 'x']);
    if (chance(0.01)) headers.push(['X-Big', 'a'.repeat(17 * 1024)]);
    if (chance(0.01)) headers.push(['Content-Length', 'abc']);
    let body: string | undefined;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' && chance(0.75)) body = pick(jsonBodies)();
    const chunked = body !== undefined && chance(0.25);
    if (chance(0.01)) {
      // A chunked body whose chunk size is not hex.
      cases.push({ request: Buffer.from(`POST /api/v1/pages HTTP/1.1\r\nHost: a\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`), summary: 'bad chunk size', head: false });
      continue;
    }
    cases.push({
      request: rawRequest(method, target, headers, body === undefined ? undefined : Buffer.from(body, 'utf8'), { chunked }),
      summary: `${method} ${target.slice(0, 200)} [${headers.map(([k, v]) => `${k}: ${v.slice(0, 40)}`).join(' | ')}]${body === undefined ? '' : ` body ${body.slice(0, 80)}${chunked ? ' (chunked)' : ''}`}`,
      head: method === 'HEAD',
    });
  }
  return cases;
}

/** What is wrong with an answer, or null. */
function problemOf(c: Case, a: RawAnswer): string | null {
  if (a.status === null) return `no answer (${a.error ?? 'connection closed'}; got ${JSON.stringify(a.statusLine)})`;
  if (a.status >= 500) return `${a.status}: ${a.body.toString('utf8').slice(0, 200)}`;
  if (!/^HTTP\/1\.1 \d{3} \S/.test(a.statusLine ?? '')) return `no reason phrase: ${JSON.stringify(a.statusLine)}`;
  if (a.status >= 400 && !c.head) {
    let parsed: unknown;
    try { parsed = JSON.parse(a.body.toString('utf8')); } catch { return `${a.status} without a JSON body: ${JSON.stringify(a.body.toString('utf8').slice(0, 100))}`; }
    const error = (parsed as { error?: { code?: unknown; message?: unknown } }).error;
    if (typeof error?.code !== 'string' || typeof error.message !== 'string') return `${a.status} not in the error shape: ${a.body.toString('utf8').slice(0, 200)}`;
  }
  return null;
}

describe(`fuzzed requests over a socket (seed ${seed}, ${total} requests)`, () => {
  let t: TestCms;
  let server: Awaited<ReturnType<typeof serveOverSocket>>;
  let fixture: Fixture;

  beforeAll(async () => {
    t = await createTestCms({ config: { rateLimit: { requests: 1_000_000, windowSeconds: 60 } } });
    await t.run('schema.push', {
      pageTypes: [{ definition: { slug: 'landing', name: 'Landing', fields: [
        { name: 'title', type: 'text' }, { name: 'priority', type: 'number' }, { name: 'product', type: 'reference', options: { collectionType: 'products' } },
      ] } }],
      collections: [{ definition: { slug: 'products', name: 'Products', fields: [{ name: 'price', type: 'number' }] } }],
      components: [],
    });
    const key = async (type: string, permissions?: string) => (await t.run('keys.create', { type, ...(permissions ? { permissions } : {}) })).key as string;
    const keys = { public: await key('public'), secret: await key('secret', 'content:write,media:write'), preview: await key('preview') };
    const item = await t.run('items.create', { collectionTypeSlug: 'products', name: 'Rocket', slug: 'rocket', fields: { price: 10 }, status: 'published' });
    const page = await t.run('pages.create', { pageTypeSlug: 'landing', name: 'Home', slug: 'home', status: 'published', fields: { title: 'Home', product: item.id } });
    await t.run('pages.create', { pageTypeSlug: 'landing', name: 'About', slug: 'about', fields: { title: 'About' } });
    await t.run('users.create', { email: 'owner@example.test', password: 'correct horse battery staple', role: 'owner' });
    server = await serveOverSocket(t.cms);
    const login = await server.fetch('/api/v1/admin/auth/login', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@example.test', password: 'correct horse battery staple' }),
    });
    expect(login.status).toBe(200);
    const form = new FormData();
    form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
    const upload = await server.fetch('/api/v1/media', { method: 'POST', headers: { 'x-api-key': keys.secret, 'idempotency-key': 'upload-1' }, body: form });
    const uploaded = (await upload.json()) as { data?: { url?: string } };
    fixture = {
      port: server.server.port,
      keys,
      cookie: login.headers.get('set-cookie')!.split(';')[0]!,
      pageId: page.id,
      mediaPath: uploaded.data?.url ? new URL(uploaded.data.url).pathname : '/api/v1/media/default/none.txt',
    };
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it('answers every one with a status below 500, in the API\'s error shape, and the server lives on', async () => {
    const cases = makeCases(fixture, total, prng(seed));
    const problems: string[] = [];
    const stats: Record<string, number> = {};
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const i = next++;
        const c = cases[i]!;
        const answer = await rawExchange(fixture.port, c.request);
        const problem = problemOf(c, answer);
        if (process.env.FUZZ_STATS) stats[String(answer.status)] = (stats[String(answer.status)] ?? 0) + 1;
        if (problem) problems.push(`#${i} ${c.summary}\n    → ${problem}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    if (process.env.FUZZ_STATS) console.log(stats);
    expect(problems.slice(0, 20), `seed ${seed}: ${problems.length} of ${cases.length} requests went wrong`).toEqual([]);

    const health = await server.fetch('/api/v1/health');
    expect(health.status).toBe(200);
    const pages = await server.fetch('/api/v1/pages', { headers: { 'x-api-key': fixture.keys.public } });
    expect(pages.status).toBe(200);
  }, 120_000);
});
