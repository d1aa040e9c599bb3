import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCms, type TestCms } from '../helpers/engine.js';
import { serveOverSocket, type HttpClient } from '../helpers/http.js';

describe('content smoke', () => {
  let t: TestCms;
  let http: HttpClient;
  let sk: string;
  let pk: string;
  beforeAll(async () => {
    t = await createTestCms();
    await t.run('schema.push', {
      pageTypes: [{ definition: { slug: 'landing', name: 'Landing', fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'product', type: 'reference', options: { collectionType: 'products' } },
      ] } }],
      collections: [{ definition: { slug: 'products', name: 'Products', fields: [{ name: 'price', type: 'number' }] } }],
      components: [],
    });
    sk = (await t.run('keys.create', { type: 'secret', permissions: 'content:write' })).key;
    pk = (await t.run('keys.create', { type: 'public' })).key;
    http = await serveOverSocket(t.cms);
  });
  afterAll(async () => { await http.close(); await t.close(); });

  it('creates, publishes and reads', async () => {
    const w = (path: string, body: unknown, method = 'POST', extra: Record<string, string> = {}) => http.fetch(path, {
      method, headers: { 'x-api-key': sk, 'idempotency-key': Math.random().toString(), 'content-type': 'application/json', ...extra }, body: JSON.stringify(body),
    });
    let r = await w('/api/v1/collections/products', { name: 'Rocket', slug: 'rocket', fields: { price: 10 }, status: 'published' });
    expect(r.status).toBe(201);
    const item = (await r.json()).data;
    r = await w('/api/v1/pages', { pageTypeSlug: 'landing', name: 'Home', slug: 'home', fields: { title: 'Hi', product: { _ref: item.id, _type: 'collectionItem' } } });
    expect(r.status).toBe(201);
    expect((await r.json()).data).toMatchObject({ version: 1, status: 'draft', publishedAt: null });
    r = await http.fetch('/api/v1/pages/home', { headers: { 'x-api-key': pk } });
    expect(r.status).toBe(404);
    r = await w('/api/v1/pages/home/publish', {});
    expect(r.status).toBe(200);
    r = await http.fetch('/api/v1/pages/home', { headers: { 'x-api-key': pk } });
    const body = await r.json();
    expect(r.status).toBe(200);
    expect(body.data.fields.product).toMatchObject({ _type: 'products', id: item.id, name: 'Rocket', price: 10 });
    expect(body.redirect).toBeNull();
    const etag = r.headers.get('etag')!;
    r = await http.fetch('/api/v1/pages/home', { headers: { 'x-api-key': pk, 'if-none-match': etag } });
    expect(r.status).toBe(304);
    r = await w('/api/v1/pages/home', { slug: 'start', fields: { title: 'Hello' } }, 'PUT', { 'if-match': '"1"' });
    expect(r.status).toBe(200);
    expect((await r.json()).data.version).toBe(2);
    r = await w('/api/v1/pages/start/publish', {});
    r = await http.fetch('/api/v1/pages/home', { headers: { 'x-api-key': pk } });
    const moved = await r.json();
    expect(moved.redirect).toEqual({ from: 'home', to: 'start', permanent: true });
    expect(moved.data.fields.title).toBe('Hello');
    r = await http.fetch('/api/v1/collections/products?filter[fields.price][gt]=5&sort=name', { headers: { 'x-api-key': pk } });
    const list = await r.json();
    expect(list.pagination).toEqual({ total: 1, page: 1, limit: 20, totalPages: 1 });
    r = await http.fetch('/api/v1/collections/products?filter[bogus]=1', { headers: { 'x-api-key': pk } });
    expect((await r.json()).error.code).toBe('INVALID_FILTER_FIELD');
    r = await w('/api/v1/collections/products/rocket', {}, 'DELETE');
    expect(r.status).toBe(409);
    expect((await r.json()).error.code).toBe('HAS_REFERENCES');
  });
});
