import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContentHarness, doorNames, type ContentHarness } from './support.js';

/**
 * `sort=fields.<path>` on collections: numbers as numbers, strings as text, kinds in a fixed
 * order, missing values last in either direction, ties broken by the next key and then the id.
 */
describe('collections sorted by their own fields', () => {
  let h: ContentHarness;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await createContentHarness();
    const seed: Array<[string, Record<string, unknown>, boolean?]> = [
      ['a', { price: 9, rank: '10', featured: true, meta: { w: 5 } }],
      ['b', { price: 10, rank: '9', meta: { w: 'heavy' } }],
      ['c', { price: 100, featured: false, meta: { w: 12.5 } }],
      ['d', { rank: 'b', meta: { w: null } }],
      ['e', { price: 10, meta: {} }],
      ['f', { price: 2.5, rank: 'a', meta: { w: true } }],
      ['g', { price: 1 }, false],
    ];
    for (const [slug, fields, published = true] of seed) {
      ids[slug] = (await h.createItem('products', { name: slug.toUpperCase(), slug, fields, status: published ? 'published' : 'draft' })).id;
    }
  });
  afterAll(async () => { await h.close(); });

  /** b and e tie on price 10: without another key the id decides. */
  const tie = () => (ids.b! < ids.e! ? ['b', 'e'] : ['e', 'b']);

  for (const door of doorNames) {
    describe(door, () => {
      const get = (query: string, headers: Record<string, string> = {}) => h.get(`/api/v1/collections/products?${query}`, { door, headers });
      const slugs = async (query: string, headers?: Record<string, string>) => {
        const r = await get(query, headers);
        expect(r.status, query).toBe(200);
        return (await r.json()).data.map((i: { slug: string }) => i.slug);
      };

      it('sorts numbers as numbers, ascending and descending, missing values last both ways', async () => {
        expect(await slugs('sort=fields.price')).toEqual(['f', 'a', ...tie(), 'c', 'd']);
        expect(await slugs('sort=-fields.price')).toEqual(['c', ...tie(), 'a', 'f', 'd']);
      });

      it('sorts strings as text, missing last', async () => {
        expect(await slugs('sort=fields.rank')).toEqual(['a', 'b', 'f', 'd', ...(ids.c! < ids.e! ? ['c', 'e'] : ['e', 'c'])]);
        expect((await slugs('sort=-fields.rank')).slice(0, 4)).toEqual(['d', 'f', 'b', 'a']);
      });

      it('mixes keys: content fields with core keys, the next key breaking ties', async () => {
        expect(await slugs('sort=fields.price,-name')).toEqual(['f', 'a', 'e', 'b', 'c', 'd']);
        expect(await slugs('sort=fields.price,name')).toEqual(['f', 'a', 'b', 'e', 'c', 'd']);
        // Booleans false before true; the items without the field follow, by slug.
        expect(await slugs('sort=fields.featured,slug')).toEqual(['c', 'a', 'b', 'd', 'e', 'f']);
        expect(await slugs('sort=-fields.featured,-slug')).toEqual(['a', 'c', 'f', 'e', 'd', 'b']);
      });

      it('sorts by nested paths; kinds never mix: numbers, then strings, then booleans, then missing', async () => {
        expect(await slugs('sort=fields.meta.w,slug')).toEqual(['a', 'c', 'b', 'f', 'd', 'e']);
        expect(await slugs('sort=-fields.meta.w,slug')).toEqual(['c', 'a', 'b', 'f', 'd', 'e']);
      });

      it('pages through a field sort without gaps or overlaps', async () => {
        const all: string[] = [];
        for (let page = 1; page <= 3; page += 1) {
          const body = await (await get(`sort=-fields.price&limit=2&page=${page}`)).json();
          expect(body.pagination).toEqual({ total: 6, page, limit: 2, totalPages: 3 });
          all.push(...body.data.map((i: { slug: string }) => i.slug));
        }
        expect(all).toEqual(['c', ...tie(), 'a', 'f', 'd']);
      });

      it('sorts drafts by their draft content for a preview key', async () => {
        expect((await slugs('sort=fields.price', { 'x-preview-key': h.keys.preview }))[0]).toBe('g');
      });

      it('refuses malformed paths with INVALID_JSON_FIELD_PATH and unknown keys with INVALID_QUERY', async () => {
        for (const sort of ['fields', 'fields.', 'fields.a..b', '-fields.a.', 'fields.a-b', "fields.price');drop table pages;--", 'fields.list[0]']) {
          const r = await get(`sort=${encodeURIComponent(sort)}`);
          expect(r.status, sort).toBe(400);
          const body = await r.json();
          expect(body.error.code, sort).toBe('INVALID_JSON_FIELD_PATH');
          expect(body.error.details).toMatchObject({ parameter: 'sort' });
        }
        const unknown = await get('sort=price');
        expect(unknown.status).toBe(400);
        const body = await unknown.json();
        expect(body.error.code).toBe('INVALID_QUERY');
        expect(body.error.message).toContain('allowed: createdAt, updatedAt, publishedAt, name, slug, _sortOrder, fields.<name>');
        const many = await get(`sort=${Array.from({ length: 11 }, (_, i) => `fields.k${i}`).join(',')}`);
        expect(many.status).toBe(400);
        expect((await many.json()).error).toMatchObject({ code: 'INVALID_QUERY', message: expect.stringContaining('at most 10 sort keys') });
      });

      it('keeps pages to the contract sort keys', async () => {
        const r = await h.get('/api/v1/pages?sort=fields.title', { door });
        expect(r.status).toBe(400);
        const body = await r.json();
        expect(body.error.code).toBe('INVALID_QUERY');
        expect(body.error.message).toContain('cannot sort by "fields.title"; allowed: createdAt, updatedAt, publishedAt, name, slug');
      });
    });
  }

  it('caches each sort apart, a repeated sort parameter included, and sees writes', async () => {
    expect((await (await h.get('/api/v1/collections/products?sort=fields.price')).json()).data[0].slug).toBe('f');
    expect((await (await h.get('/api/v1/collections/products?sort=-fields.price')).json()).data[0].slug).toBe('c');
    // The last sort parameter counts, so these two are different reads.
    const first = async (query: string) => (await (await h.get(`/api/v1/collections/products?${query}`)).json()).data[0].slug;
    expect(await first('sort=slug&sort=-fields.price')).toBe('c');
    expect(await first('sort=-fields.price&sort=slug')).toBe('a');
    expect(await first('sort=slug&sort=-fields.price')).toBe('c');
    // A write (published) reorders the cached list.
    expect((await h.write('PUT', '/api/v1/collections/products/d', { fields: { price: 1000 } })).status).toBe(200);
    expect((await h.write('POST', '/api/v1/collections/products/d/publish')).status).toBe(200);
    expect(await first('sort=-fields.price')).toBe('d');
    expect(await first('sort=fields.price&limit=1&page=6')).toBe('d');
  });
});
