import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pages } from '../../src/db/schema/index.js';
import { createCms } from '../../src/runtime.js';
import { testDriver } from '../helpers/db.js';
import { createTestCms } from '../helpers/engine.js';
import { serveOverSocket } from '../helpers/http.js';
import { useListsSite } from './lists-site.js';

/**
 * With the response cache on, a public list never asked for before is made from what earlier
 * lists kept (services.readMemory): the order of the list in chunks of ids, its total, and each
 * entry's read shape, for the project's current generation. Every content change starts a new
 * generation, so what a list shows after a write is what the database holds.
 */
describe(`public lists made from memory (${testDriver})`, () => {
  const site = useListsSite({}, { linked: true });
  const { get, write } = site;
  // Each read asks for a page size never asked for before: no answer of the response cache fits it.
  let size = 100;
  const fresh = () => `limit=${--size}`;
  const slugs = async (path: string) => (await get(path)).data.map((e: any) => e.slug);

  it('makes a list never asked for from the entries earlier lists read: a change behind the engine shows only after a write', async () => {
    expect(await slugs(`/api/v1/pages?sort=slug&${fresh()}`)).toEqual(['page-1', 'page-2', 'page-3', 'page-4', 'page-5']);
    // Behind the engine's back: no write, no change notice. The next list is one never asked for,
    // made of entries already read: it shows them as they were read.
    await site.t.cms.db.update(pages).set({ name: 'Renamed underneath' }).where(eq(pages.slug, 'page-3'));
    const second = await get('/api/v1/pages?sort=slug&limit=2&page=2');
    expect(second.data.map((p: any) => p.name)).toEqual(['Page 3', 'Page 4']);
    expect(second.pagination).toEqual({ total: 5, page: 2, limit: 2, totalPages: 3 });
    // Any write through the engine is a change: every list after it reads the database again.
    await write('PUT', '/api/v1/pages/page-5', { name: 'Page 5' });
    expect((await get('/api/v1/pages?sort=slug&limit=3&page=1')).data.map((p: any) => p.name)).toEqual(['Page 1', 'Page 2', 'Renamed underneath']);
    await site.t.cms.db.update(pages).set({ name: 'Page 3' }).where(eq(pages.slug, 'page-3'));
    await write('PUT', '/api/v1/pages/page-5', { name: 'Page 5' });
  });

  it('follows every write on pages of every size and sort: create, unpublish, publish, delete', async () => {
    const list = (page: number, sort = 'name') => `/api/v1/collections/products?sort=${sort}&page=${page}&${fresh()}`;
    expect((await get(list(1))).pagination.total).toBe(5);
    await write('POST', '/api/v1/collections/products', { name: 'Product 6', slug: 'product-6', fields: { price: 60 }, status: 'published' });
    expect(await slugs(list(1))).toEqual(['product-1', 'product-2', 'product-3', 'product-4', 'product-5', 'product-6']);
    expect(await slugs(list(1, '-name'))).toEqual(['product-6', 'product-5', 'product-4', 'product-3', 'product-2', 'product-1']);
    expect((await get('/api/v1/collections/products?sort=name&limit=4&page=2')).pagination).toEqual({ total: 6, page: 2, limit: 4, totalPages: 2 });
    await write('POST', '/api/v1/collections/products/product-6/unpublish');
    expect(await slugs(list(1, '-name'))).toEqual(['product-5', 'product-4', 'product-3', 'product-2', 'product-1']);
    expect((await get('/api/v1/collections/products?sort=name&limit=4&page=3')).pagination).toEqual({ total: 5, page: 3, limit: 4, totalPages: 2 });
    await write('POST', '/api/v1/collections/products/product-6/publish');
    expect((await get(list(1, 'slug'))).pagination.total).toBe(6);
    await write('DELETE', '/api/v1/collections/products/product-6');
    expect(await slugs(list(1, '-slug'))).toEqual(['product-5', 'product-4', 'product-3', 'product-2', 'product-1']);
    // A filtered list reads its page each time, and keeps the entries' shapes like any other.
    const filtered = (bound: number) => `/api/v1/collections/products?filter[fields.price][gte]=${bound}&sort=-slug&${fresh()}`;
    expect(await slugs(filtered(30))).toEqual(['product-5', 'product-4', 'product-3']);
    await write('PUT', '/api/v1/collections/products/product-1', { fields: { price: 99 } });
    await write('POST', '/api/v1/collections/products/product-1/publish');
    expect(await slugs(filtered(30))).toEqual(['product-5', 'product-4', 'product-3', 'product-1']);
    expect((await get(filtered(50))).data.map((p: any) => p.fields.price)).toEqual([50, 99]);
    await write('PUT', '/api/v1/collections/products/product-1', { fields: { price: 10 } });
    await write('POST', '/api/v1/collections/products/product-1/publish');
    // Past the end of the list: empty, and the total is still the list's.
    expect((await get('/api/v1/collections/products?sort=name&limit=3&page=400'))).toEqual({ data: [], pagination: { total: 5, page: 400, limit: 3, totalPages: 2 } });
  });

  it('keeps each way of reading an entry apart: fields, media, refTypes, previews', async () => {
    await write('PUT', '/api/v1/pages/page-2', { fields: { title: 'Draft title' } });
    const plain = (await get(`/api/v1/pages?sort=slug&${fresh()}`)).data[1];
    expect(plain.fields).toEqual({ title: 'Page 2', product: expect.objectContaining({ _type: 'products', name: 'Product 2' }) });
    const titles = (await get(`/api/v1/pages?sort=slug&fields=title&${fresh()}`)).data[1];
    expect(titles.fields).toEqual({ title: 'Page 2' });
    const noTypes = (await get(`/api/v1/pages?sort=slug&refTypes=false&${fresh()}`)).data[1];
    expect(noTypes.fields.product).not.toHaveProperty('_type');
    expect(noTypes.fields.product.name).toBe('Product 2');
    const previewed = (await get(`/api/v1/pages?sort=slug&${fresh()}`, site.previewHeaders())).data[1];
    expect(previewed.fields.title).toBe('Draft title');
    // And the public read still shows the published title.
    expect((await get(`/api/v1/pages?sort=slug&${fresh()}`)).data[1].fields.title).toBe('Page 2');
    await write('POST', '/api/v1/pages/page-2/publish');
    expect((await get(`/api/v1/pages?sort=slug&${fresh()}`)).data[1].fields.title).toBe('Draft title');
  });

  it('shows a change to what an entry points at in every list after it', async () => {
    const productOfPage1 = async () => (await get(`/api/v1/pages?sort=slug&${fresh()}`)).data[0].fields.product?.name ?? null;
    expect(await productOfPage1()).toBe('Product 1');
    await write('PUT', '/api/v1/collections/products/product-1', { name: 'Product one' });
    await write('POST', '/api/v1/collections/products/product-1/publish');
    expect(await productOfPage1()).toBe('Product one');
    await write('POST', '/api/v1/collections/products/product-1/unpublish');
    expect(await productOfPage1()).toBeNull();
    await write('POST', '/api/v1/collections/products/product-1/publish');
    expect(await productOfPage1()).toBe('Product one');
  });

  it('shows a member added or removed in the user references of every read after it', async () => {
    await site.t.run('types.create', { kind: 'pageTypes', definition: { slug: 'note', name: 'Note', fields: [{ name: 'author', type: 'reference', options: { referenceType: 'user' } }] } });
    const user = await site.t.run('users.create', { email: 'grace@example.test', password: 'correct horse battery', role: 'editor', name: 'Grace Hopper' });
    await site.t.run('pages.create', { pageTypeSlug: 'note', name: 'Note', slug: 'note', fields: { author: { _ref: user.id, _type: 'user' } }, status: 'published' });
    const authorInList = async () => (await get(`/api/v1/pages?pageType=note&${fresh()}`)).data[0].fields.author;
    const authorOfPage = async () => (await get('/api/v1/pages/note')).data.fields.author;
    expect(await authorInList()).toEqual({ _type: 'user', id: user.id, name: 'Grace Hopper' });
    expect(await authorOfPage()).toEqual({ _type: 'user', id: user.id, name: 'Grace Hopper' });
    await site.t.run('members.remove', { userId: user.id });
    expect(await authorInList()).toBeNull();
    expect(await authorOfPage()).toBeNull();
    await site.t.run('members.add', { email: 'grace@example.test', role: 'viewer' });
    expect(await authorInList()).toEqual({ _type: 'user', id: user.id, name: 'Grace Hopper' });
    expect(await authorOfPage()).toEqual({ _type: 'user', id: user.id, name: 'Grace Hopper' });
  });

  it('answers right when the bound keeps almost nothing (every value evicted before it is used again)', async () => {
    const tiny = await createTestCms({ config: { rateLimit: null, cacheMaxBytes: 2048 } });
    try {
      await tiny.run('schema.push', { pageTypes: [{ definition: { slug: 'landing', name: 'Landing', fields: [{ name: 'title', type: 'text' }] } }], collections: [], components: [] });
      const key = (await tiny.run('keys.create', { type: 'public' })).key;
      for (let i = 1; i <= 12; i++) await tiny.run('pages.create', { pageTypeSlug: 'landing', name: `Page ${i}`, slug: `p-${String(i).padStart(2, '0')}`, fields: { title: 'x'.repeat(300) }, status: 'published' });
      const server = await serveOverSocket(tiny.cms);
      try {
        for (let limit = 1; limit <= 12; limit++) {
          for (let page = 1; page * limit <= 12; page++) {
            const r = await (await server.fetch(`/api/v1/pages?sort=slug&limit=${limit}&page=${page}`, { headers: { 'x-api-key': key } })).json() as any;
            const want = Array.from({ length: limit }, (_, i) => `p-${String((page - 1) * limit + i + 1).padStart(2, '0')}`);
            expect(r.data.map((e: any) => e.slug), `limit ${limit} page ${page}`).toEqual(want);
            expect(r.pagination.total).toBe(12);
          }
        }
      } finally {
        await server.close();
      }
    } finally {
      await tiny.close();
    }
  });

  if (testDriver === 'postgres') {
    it('follows a write through another engine on the same database once its notice comes', async () => {
      const nameOfPage4 = async () => (await get(`/api/v1/pages?sort=slug&${fresh()}`)).data.find((p: any) => p.slug === 'page-4').name;
      expect(await nameOfPage4()).toBe('Page 4');
      const other = await createCms(site.t.config);
      try {
        await other.run('pages.update', { ref: { slug: 'page-4' }, name: 'Written by engine B' }, { actor: { kind: 'terminal' } });
        await other.run('pages.publish', { ref: { slug: 'page-4' } }, { actor: { kind: 'terminal' } });
        await expect.poll(nameOfPage4).toBe('Written by engine B');
      } finally {
        await other.close();
      }
    });
  }
});
