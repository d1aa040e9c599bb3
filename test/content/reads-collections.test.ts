import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../helpers/engine.js';
import { createContentHarness, doorNames, itemReadKeys, sortedKeys, type ContentHarness } from './support.js';

/** GET /api/v1/collections/:type and /collections/:type/:slug, through both doors. */
describe('public collection reads', () => {
  let h: ContentHarness;
  const clock = createManualClock();
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await createContentHarness({ clock });
    // Authored order differs from creation order on purpose.
    const seed: Array<[string, number, boolean]> = [['delta', 3, true], ['alpha', 1, true], ['charlie', 0, true], ['bravo', 2, true], ['echo', 4, false]];
    for (const [slug, sortOrder, published] of seed) {
      clock.advance(1000);
      const item = await h.createItem('products', {
        name: slug[0]!.toUpperCase() + slug.slice(1), slug, sortOrder, fields: { price: sortOrder * 10, sku: `SKU-${slug}` },
        status: published ? 'published' : 'draft',
      });
      ids[slug] = item.id;
    }
    clock.advance(1000);
    ids.cat = (await h.createItem('categories', { name: 'Tools', slug: 'tools', fields: { label: 'Tools' }, status: 'published' })).id;
    // Same slug in another collection type: slugs are unique per type only.
    ids.catAlpha = (await h.createItem('categories', { name: 'Alpha cat', slug: 'alpha', fields: { label: 'A' }, status: 'published' })).id;
    clock.advance(1000);
    expect((await h.write('PUT', '/api/v1/collections/products/bravo', { slug: 'bravo-two' })).status).toBe(200);
  });
  afterAll(async () => { await h.close(); });

  for (const door of doorNames) {
    describe(door, () => {
      const get = (path: string) => h.get(path, { door });
      const slugs = async (query: string) => (await (await get(`/api/v1/collections/products?${query}`)).json()).data.map((i: any) => i.slug);

      it('lists the published items of one type, newest publication first', async () => {
        const r = await get('/api/v1/collections/products');
        expect(r.status).toBe(200);
        const body = await r.json();
        expect(body.pagination).toEqual({ total: 4, page: 1, limit: 20, totalPages: 1 });
        expect(body.data.map((i: any) => i.slug)).toEqual(['bravo-two', 'charlie', 'alpha', 'delta']);
      });

      it('delivers the item read shape exactly (a page without seo)', async () => {
        const body = await (await get('/api/v1/collections/products?sort=slug&limit=1')).json();
        const item = body.data[0];
        expect(sortedKeys(item)).toEqual(itemReadKeys);
        expect(item).toEqual({
          id: ids.alpha, name: 'Alpha', slug: 'alpha', type: 'products', fields: { price: 10, sku: 'SKU-alpha' },
          publishedAt: expect.any(String), updatedAt: expect.any(String),
        });
        const one = await (await get('/api/v1/collections/categories/tools')).json();
        expect(sortedKeys(one)).toEqual(['data', 'redirect']);
        expect(one.redirect).toBeNull();
        expect(one.data).toEqual({
          id: ids.cat, name: 'Tools', slug: 'tools', type: 'categories', fields: { label: 'Tools', code: 'none' },
          publishedAt: expect.any(String), updatedAt: expect.any(String),
        });
      });

      it('sorts by _sortOrder (authored order) and by the page sort keys', async () => {
        expect(await slugs('sort=_sortOrder')).toEqual(['charlie', 'alpha', 'bravo-two', 'delta']);
        expect(await slugs('sort=-_sortOrder')).toEqual(['delta', 'bravo-two', 'alpha', 'charlie']);
        expect(await slugs('sort=name')).toEqual(['alpha', 'bravo-two', 'charlie', 'delta']);
        expect(await slugs('sort=-slug')).toEqual(['delta', 'charlie', 'bravo-two', 'alpha']);
        expect(await slugs('sort=createdAt')).toEqual(['delta', 'alpha', 'charlie', 'bravo-two']);
        expect(await slugs('sort=-publishedAt')).toEqual(['bravo-two', 'charlie', 'alpha', 'delta']);
        expect((await slugs('sort=-updatedAt'))[0]).toBe('bravo-two');
        expect(await slugs('sort=publishedAt,_sortOrder')).toEqual(['delta', 'alpha', 'charlie', 'bravo-two']);
        const r = await get('/api/v1/collections/products?sort=price');
        expect(r.status).toBe(400);
        expect((await r.json()).error.code).toBe('INVALID_QUERY');
      });

      it('pages through items', async () => {
        const body = await (await get('/api/v1/collections/products?sort=_sortOrder&limit=3&page=2')).json();
        expect(body.pagination).toEqual({ total: 4, page: 2, limit: 3, totalPages: 2 });
        expect(body.data.map((i: any) => i.slug)).toEqual(['delta']);
        for (const q of ['page=0', 'limit=0', 'limit=101']) {
          const r = await get(`/api/v1/collections/products?${q}`);
          expect(r.status, q).toBe(400);
          expect((await r.json()).error.code).toBe('INVALID_QUERY');
        }
      });

      it('reads one item; the same slug in another type is another item', async () => {
        const product = await (await get('/api/v1/collections/products/alpha')).json();
        expect(product.data).toMatchObject({ id: ids.alpha, type: 'products' });
        const category = await (await get('/api/v1/collections/categories/alpha')).json();
        expect(category.data).toMatchObject({ id: ids.catAlpha, type: 'categories' });
      });

      it('answers an old item slug with the redirect object', async () => {
        const body = await (await get('/api/v1/collections/products/bravo')).json();
        expect(body.redirect).toEqual({ from: 'bravo', to: 'bravo-two', permanent: true });
        expect(body.data).toMatchObject({ id: ids.bravo, slug: 'bravo-two' });
        // An old slug is looked up within its own collection type only.
        expect((await get('/api/v1/collections/categories/bravo')).status).toBe(404);
      });

      it('answers 404 for unknown types, unknown items and drafts', async () => {
        for (const path of ['/api/v1/collections/nothing', '/api/v1/collections/nothing/alpha', '/api/v1/collections/products/zulu', '/api/v1/collections/products/echo', '/api/v1/collections/categories/delta']) {
          const r = await get(path);
          expect(r.status, path).toBe(404);
          expect((await r.json()).error.code).toBe('NOT_FOUND');
        }
      });
    });
  }
});
