import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContentHarness, doorNames, type ContentHarness, type JsonResponse } from './support.js';

const errorShape = (code: string) => ({ error: { code, message: expect.any(String) } });

/** Keys on the public API (the contract's Authentication) and the error bodies: a code, a message and details. */
describe('authentication and errors', () => {
  let h: ContentHarness;

  beforeAll(async () => {
    h = await createContentHarness();
    await h.createPage({ name: 'Home', slug: 'home', fields: { title: 'T' }, status: 'published' });
    await h.createItem('products', { name: 'P', slug: 'p', fields: { price: 1 }, status: 'published' });
  });
  afterAll(async () => { await h.close(); });

  const reads = ['/api/v1/pages', '/api/v1/pages/home', '/api/v1/collections/products', '/api/v1/collections/products/p'];

  for (const door of doorNames) {
    describe(door, () => {
      it('refuses reads without a key: 401 UNAUTHORIZED', async () => {
        for (const path of reads) {
          const r = await h.get(path, { door, key: null });
          expect(r.status, path).toBe(401);
          expect(await r.json()).toEqual(errorShape('UNAUTHORIZED'));
        }
      });

      it('refuses invalid and revoked keys: 401 UNAUTHORIZED', async () => {
        const { key, id } = await h.t.run('keys.create', { type: 'public' });
        expect((await h.get('/api/v1/pages', { door, key })).status).toBe(200);
        await h.t.run('keys.revoke', { id });
        for (const bad of [key, 'svc_pk_not-a-key', 'svc_sk_not-a-key', 'garbage', h.keys.preview]) {
          const r = await h.get('/api/v1/pages/home', { door, key: bad });
          expect(r.status, bad).toBe(401);
          expect(await r.json()).toEqual(errorShape('UNAUTHORIZED'));
        }
      });

      it('lets any valid key read, and a public key travel in the query', async () => {
        for (const key of [h.keys.public, h.keys.secret, h.keys.secretNoWrite]) {
          expect((await h.get('/api/v1/pages/home', { door, key })).status).toBe(200);
        }
        const r = await h.get(`/api/v1/pages/home?api_key=${h.keys.public}`, { door, key: null });
        expect(r.status).toBe(200);
        expect((await r.json()).data.slug).toBe('home');
      });

      it('refuses a secret key in the query, even a valid one', async () => {
        const r = await h.get(`/api/v1/pages/home?api_key=${h.keys.secret}`, { door, key: null });
        expect(r.status).toBe(401);
        const body = await r.json();
        expect(body.error.code).toBe('UNAUTHORIZED');
        expect(body.error.message).toMatch(/header/i);
        const w = await h.write('PUT', `/api/v1/pages/home?api_key=${h.keys.secret}`, { name: 'x' }, { door, key: null });
        expect(w.status).toBe(401);
      });

      it('refuses a secret key in the query beside a header key or after another api_key too', async () => {
        const reads: Array<[string, string | null]> = [
          [`/api/v1/pages/home?api_key=${h.keys.secret}`, h.keys.public],
          [`/api/v1/pages/home?api_key=${h.keys.secret}`, h.keys.secret],
          [`/api/v1/pages/home?api_key=${h.keys.public}&api_key=${h.keys.secret}`, null],
          [`/api/v1/pages?api_key=${h.keys.secret}`, h.keys.public],
        ];
        for (const [path, key] of reads) {
          // Twice: the second could be a cache hit.
          for (let i = 0; i < 2; i++) {
            const r = await h.get(path, { door, key });
            expect(r.status, `${path} ${key}`).toBe(401);
            expect((await r.json()).error.code).toBe('UNAUTHORIZED');
          }
        }
        const w = await h.write('PUT', `/api/v1/pages/home?api_key=${h.keys.secret}`, { name: 'Never' }, { door, key: h.keys.secret });
        expect(w.status).toBe(401);
        expect((await h.t.run('pages.get', { ref: { slug: 'home' } })).name).not.toBe('Never');
      });

      it('refuses writes by public keys with 403 FORBIDDEN', async () => {
        const r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'X', slug: 'x' }, { door, key: h.keys.public });
        expect(r.status).toBe(403);
        const body = await r.json();
        expect(body).toEqual(errorShape('FORBIDDEN'));
        expect(body.error.message).toMatch(/read-only/);
        const q = await h.write('PUT', `/api/v1/pages/home?api_key=${h.keys.public}`, { name: 'x' }, { door, key: null });
        expect(q.status).toBe(403);
      });

      it('refuses writes by a secret key without content:write with 403 naming the permission', async () => {
        for (const [method, path] of [['POST', '/api/v1/pages'], ['PUT', '/api/v1/pages/home'], ['POST', '/api/v1/pages/home/publish'], ['DELETE', '/api/v1/pages/home'], ['POST', '/api/v1/collections/products']] as const) {
          const r = await h.write(method, path, { name: 'X' }, { door, key: h.keys.secretNoWrite });
          expect(r.status, path).toBe(403);
          const body = await r.json();
          expect(body.error.code).toBe('FORBIDDEN');
          expect(body.error.message).toContain('content:write');
        }
      });

      it('refuses writes without a key with 401 UNAUTHORIZED', async () => {
        const r = await h.write('DELETE', '/api/v1/pages/home', undefined, { door, key: null });
        expect(r.status).toBe(401);
        expect(await r.json()).toEqual(errorShape('UNAUTHORIZED'));
      });

      it('answers every error as { error: { code, message } } with details where the code has them', async () => {
        const cases: Array<[Promise<JsonResponse>, number, string]> = [
          [h.get('/api/v1/pages/none', { door }), 404, 'NOT_FOUND'],
          [h.get('/api/v1/pages?limit=500', { door }), 400, 'INVALID_QUERY'],
          [h.get('/api/v1/collections/products?filter[id]=1', { door }), 400, 'INVALID_FILTER_FIELD'],
          [h.get('/api/v1/collections/products?filter[fields.a..b]=1', { door }), 400, 'INVALID_JSON_FIELD_PATH'],
          [h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'H', slug: 'home' }, { door }), 409, 'SLUG_EXISTS'],
          [h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'H', slug: 'Bad_Slug' }, { door }), 400, 'VALIDATION_FAILED'],
          [h.write('PUT', '/api/v1/pages/home', { name: 'H' }, { door, headers: { 'if-match': '"7"' } }), 409, 'VERSION_CONFLICT'],
          [h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'H', slug: 'huge', fields: { summary: 'x'.repeat(1_100_000) } }, { door }), 413, 'PAYLOAD_TOO_LARGE'],
          [h.get('/api/v1/nothing-here', { door }), 404, 'NOT_FOUND'],
        ];
        for (const [pending, status, code] of cases) {
          const r = await pending;
          expect(r.status, code).toBe(status);
          expect(r.headers.get('content-type'), code).toMatch(/^application\/json/);
          const body = await r.json();
          expect(Object.keys(body), code).toEqual(['error']);
          expect(body.error.code, code).toBe(code);
          expect(typeof body.error.message, code).toBe('string');
          expect(body.error.message.length, code).toBeGreaterThan(0);
          expect(Object.keys(body.error).every((k: string) => ['code', 'message', 'details'].includes(k)), code).toBe(true);
        }
      });
    });
  }

  describe('CORS', () => {
    it('answers preflights and lets any origin read by default', async () => {
      const pre = await h.http.fetch('/api/v1/pages', {
        method: 'OPTIONS',
        headers: { origin: 'https://site.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x-api-key, idempotency-key, if-match' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-methods')).toMatch(/PUT/);
      const allowed = (pre.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const header of ['x-api-key', 'x-preview-key', 'idempotency-key', 'if-match', 'if-none-match', 'content-type']) expect(allowed).toContain(header);
      const r = await h.get('/api/v1/pages/home', { headers: { origin: 'https://site.example' } });
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect((r.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('etag');
      // Errors carry it too, so a browser can read them.
      const e = await h.get('/api/v1/pages/none', { headers: { origin: 'https://site.example' } });
      expect(e.status).toBe(404);
      expect(e.headers.get('access-control-allow-origin')).toBe('*');
    });
  });

  describe('rate limiting', () => {
    let limited: ContentHarness;
    beforeAll(async () => {
      limited = await createContentHarness({ config: { rateLimit: { requests: 3, windowSeconds: 60 } } });
    });
    afterAll(async () => { await limited.close(); });

    it('answers 429 RATE_LIMITED with Retry-After and RateLimit-* headers once a key spends its quota', async () => {
      const remaining: Array<string | null> = [];
      // Each a different list page: answers from the response cache would not count.
      for (let i = 0; i < 3; i++) {
        const r = await limited.get(`/api/v1/pages?page=${i + 1}`);
        expect(r.status).toBe(200);
        expect(r.headers.get('ratelimit-limit')).toBe('3');
        remaining.push(r.headers.get('ratelimit-remaining'));
        expect(Number(r.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      }
      expect(remaining).toEqual(['2', '1', '0']);
      const r = await limited.get('/api/v1/pages?page=4');
      expect(r.status).toBe(429);
      const body = await r.json();
      expect(body.error.code).toBe('RATE_LIMITED');
      expect(typeof body.error.message).toBe('string');
      const retryAfter = r.headers.get('retry-after');
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
      expect(r.headers.get('ratelimit-limit')).toBe('3');
      expect(r.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(r.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      // Writes by the same key are limited too; another key has its own quota.
      expect((await limited.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'X', slug: 'x' }, { key: limited.keys.public })).status).toBe(429);
      expect((await limited.get('/api/v1/pages', { key: limited.keys.secret })).status).toBe(200);
    });
  });
});
