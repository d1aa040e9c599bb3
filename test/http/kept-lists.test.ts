import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pages } from '../../src/db/schema/index.js';
import { createCms } from '../../src/runtime.js';
import { testDriver } from '../helpers/db.js';
import { useListsSite } from './lists-site.js';

/**
 * With the response cache off, public lists read their rows on every request and keep only their
 * totals (services.listTotals), checked against the content revision read beside the rows: every
 * committed write shows at once, in this engine or any other on the same database.
 */
describe('public lists with the response cache off', () => {
  const site = useListsSite({ cache: false }, { linked: false });
  const { get, write } = site;
  const totalOf = async (path: string) => (await get(path)).pagination.total as number;

  it('counts every write at once: create, unpublish, publish, delete, on every page of the list', async () => {
    const list = '/api/v1/collections/products?limit=2&sort=name';
    const filtered = '/api/v1/collections/products?filter[fields.price][gt]=25&limit=2';
    expect(await totalOf(list)).toBe(5);
    expect(await totalOf(`${list}&page=3`)).toBe(5);
    expect(await totalOf(filtered)).toBe(3);
    await write('POST', '/api/v1/collections/products', { name: 'Product 6', slug: 'product-6', fields: { price: 60 }, status: 'published' });
    expect(await totalOf(list)).toBe(6);
    expect(await totalOf(`${list}&page=3`)).toBe(6);
    expect(await totalOf(filtered)).toBe(4);
    expect((await get(`${list}&page=3`)).data.map((i: any) => i.slug)).toEqual(['product-5', 'product-6']);
    await write('POST', '/api/v1/collections/products/product-6/unpublish');
    expect(await totalOf(list)).toBe(5);
    expect(await totalOf(filtered)).toBe(3);
    await write('POST', '/api/v1/collections/products/product-6/publish');
    expect(await totalOf(filtered)).toBe(4);
    await write('DELETE', '/api/v1/collections/products/product-6');
    expect(await totalOf(list)).toBe(5);
    expect((await get(`${list}&page=3`)).data.map((i: any) => i.slug)).toEqual(['product-5']);
  });

  it('shows a write to what a page points at, and writes through the engine itself', async () => {
    const item = (await get('/api/v1/collections/products?filter[slug]=product-1')).data[0];
    await site.t.run('pages.update', { ref: { slug: 'page-1' }, fields: { product: { _ref: item.id, _type: 'collectionItem' } } });
    await site.t.run('pages.publish', { ref: { slug: 'page-1' } });
    const read = async () => (await get('/api/v1/pages?sort=slug&limit=1')).data[0].fields.product.name;
    expect(await read()).toBe('Product 1');
    await write('PUT', '/api/v1/collections/products/product-1', { name: 'Product one' });
    await write('POST', '/api/v1/collections/products/product-1/publish');
    expect(await read()).toBe('Product one');
    await site.t.run('items.update', { ref: { slug: 'product-1' }, collection: 'products', name: 'Product uno' });
    await site.t.run('items.publish', { ref: { slug: 'product-1' }, collection: 'products' });
    expect(await read()).toBe('Product uno');
  });

  it('reads the rows on every request (the engine keeps no answers), and keeps totals while no write happened', async () => {
    const path = '/api/v1/pages?sort=slug&limit=2';
    expect((await get(path)).data[0].name).toBe('Page 1');
    // Behind the engine's back: no write, so the revision stays; the rows are read again anyway.
    await site.t.cms.db.update(pages).set({ name: 'Renamed underneath' }).where(eq(pages.slug, 'page-1'));
    expect((await get(path)).data[0].name).toBe('Renamed underneath');
    expect((await get(path, site.previewHeaders())).data[0].name).toBe('Renamed underneath');
    // The total is what the revision says: a row hidden underneath still counts until a write.
    expect(await totalOf(path)).toBe(5);
    await site.t.cms.db.update(pages).set({ status: 'draft' }).where(eq(pages.slug, 'page-5'));
    expect(await totalOf(path)).toBe(5);
    await write('PUT', '/api/v1/pages/page-4', { name: 'Page four' });
    expect(await totalOf(path)).toBe(4);
    await site.t.cms.db.update(pages).set({ name: 'Page 1' }).where(eq(pages.slug, 'page-1'));
    await site.t.cms.db.update(pages).set({ status: 'published' }).where(eq(pages.slug, 'page-5'));
    await write('PUT', '/api/v1/pages/page-4', { name: 'Page 4' });
  });

  it('shows a write to every list asked for after it, with lists in flight around it', async () => {
    const path = '/api/v1/collections/products?sort=name&limit=1';
    const nameNow = async () => (await get(path)).data[0].name as string;
    for (let round = 0; round < 5; round++) {
      const name = `Product 1, round ${round}`;
      // Reads in flight while the write commits may show either name; every read asked for after
      // the write has answered must show the new one.
      const during = Array.from({ length: 10 }, () => nameNow());
      await site.t.run('items.update', { ref: { slug: 'product-1' }, collection: 'products', name });
      const after = await Promise.all(Array.from({ length: 10 }, () => nameNow()));
      expect(after).toEqual(Array.from({ length: 10 }, () => name));
      await Promise.all(during);
    }
  });

  if (testDriver === 'postgres') {
    it('shows a write through another engine on the same database at once, without waiting for NOTIFY', async () => {
      const path = '/api/v1/pages?sort=slug&limit=1';
      await get(path);
      const other = await createCms(site.t.config);
      try {
        await other.run('pages.update', { ref: { slug: 'page-1' }, name: 'Written by engine B' }, { actor: { kind: 'terminal' } });
        await other.run('pages.publish', { ref: { slug: 'page-1' } }, { actor: { kind: 'terminal' } });
        expect((await get(path)).data[0].name).toBe('Written by engine B');
      } finally {
        await other.close();
      }
    });
  }
});
