import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../helpers/engine.js';
import { createContentHarness, doorNames, pageReadKeys, seoReadKeys, sortedKeys, type ContentHarness } from './support.js';

/**
 * GET /api/v1/pages and /pages/:slug: shapes, pagination, sorting and the page-type filter, run
 * through the real socket and through app.fetch alike.
 */
describe('public page reads', () => {
  let h: ContentHarness;
  const clock = createManualClock();
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await createContentHarness({ clock });
    // Five published landing pages, one published article, one draft; a second apart each.
    const seed: Array<[string, string, string, boolean]> = [
      ['cherry', 'landing', 'Cherry', true],
      ['apple', 'landing', 'Apple', true],
      ['elder', 'landing', 'Elder', true],
      ['banana', 'landing', 'Banana', true],
      ['damson', 'landing', 'Banana', true],
      ['notes', 'article', 'Notes', true],
      ['secret-plan', 'landing', 'Secret plan', false],
    ];
    for (const [slug, type, name, published] of seed) {
      clock.advance(1000);
      const page = await h.createPage({
        pageTypeSlug: type, name, slug,
        fields: type === 'landing' ? { title: `Title of ${slug}`, priority: slug.length } : { title: `Title of ${slug}`, body: 'Text' },
        status: published ? 'published' : 'draft',
      });
      ids[slug] = page.id;
    }
    // Renamed after publication: the old slug keeps answering.
    clock.advance(1000);
    let r = await h.write('PUT', '/api/v1/pages/elder', { slug: 'elderberry' });
    expect(r.status).toBe(200);
    r = await h.write('POST', '/api/v1/pages/elderberry/publish');
    expect(r.status).toBe(200);
    // A published page with SEO filled in.
    const image = await h.insertMedia({ width: null, height: null, altText: null });
    clock.advance(1000);
    await h.createPage({
      name: 'Seo', slug: 'seo', status: 'published', fields: { title: 'Seo' },
      seo: { metaTitle: 'Meta', metaDescription: 'Described', metaRobots: 'noindex', ogTitle: 'OG', ogDescription: 'OG text', ogImageId: image.id, canonicalUrl: 'https://example.com/seo' },
    });
    ids.seo = (await (await h.get('/api/v1/pages/seo')).json()).data.id;
    ids.image = image.id;
    ids.imageFile = image.filename;
  });
  afterAll(async () => { await h.close(); });

  for (const door of doorNames) {
    describe(door, () => {
      const get = (path: string, key?: string | null) => h.get(path, { door, ...(key === undefined ? {} : { key }) });

      it('lists published pages newest first with the pagination object', async () => {
        const r = await get('/api/v1/pages');
        expect(r.status).toBe(200);
        const body = await r.json();
        expect(sortedKeys(body)).toEqual(['data', 'pagination']);
        expect(body.pagination).toEqual({ total: 7, page: 1, limit: 20, totalPages: 1 });
        // Re-publishing (elder, after its rename) keeps the first publication date.
        expect(body.data.map((p: any) => p.slug)).toEqual(['seo', 'notes', 'damson', 'banana', 'elderberry', 'apple', 'cherry']);
      });

      it('delivers the page read shape, exactly', async () => {
        const body = await (await get('/api/v1/pages?sort=slug&limit=1')).json();
        const page = body.data[0];
        expect(sortedKeys(page)).toEqual(pageReadKeys);
        expect(page).toEqual({
          id: ids.apple,
          name: 'Apple',
          slug: 'apple',
          type: 'landing',
          fields: { title: 'Title of apple', tagline: 'Welcome', priority: 5 },
          seo: { metaTitle: null, metaDescription: null, metaRobots: null, ogTitle: null, ogDescription: null, ogImage: null, canonicalUrl: null },
          publishedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        });
        expect(sortedKeys(page.seo)).toEqual(seoReadKeys);
      });

      it('reads one page as { data, redirect: null }', async () => {
        const r = await get('/api/v1/pages/apple');
        expect(r.status).toBe(200);
        const body = await r.json();
        expect(sortedKeys(body)).toEqual(['data', 'redirect']);
        expect(body.redirect).toBeNull();
        expect(sortedKeys(body.data)).toEqual(pageReadKeys);
        expect(body.data).toMatchObject({ id: ids.apple, slug: 'apple', type: 'landing', fields: { title: 'Title of apple' } });
      });

      it('delivers SEO as read: ogImage resolved, ogImageId never shown', async () => {
        const body = await (await get('/api/v1/pages/seo')).json();
        expect(body.data.seo).toEqual({
          metaTitle: 'Meta', metaDescription: 'Described', metaRobots: 'noindex', ogTitle: 'OG', ogDescription: 'OG text',
          ogImage: { _filename: 'photo.png', _url: `${h.t.config.baseUrl}/api/v1/media/default/${ids.imageFile}`, _mimeType: 'image/png' },
          canonicalUrl: 'https://example.com/seo',
        });
        const url = await (await get('/api/v1/pages/seo?media=url')).json();
        expect(url.data.seo.ogImage).toBe(`${h.t.config.baseUrl}/api/v1/media/default/${ids.imageFile}`);
      });

      it('answers an old slug with the current page and the redirect object', async () => {
        const r = await get('/api/v1/pages/elder');
        expect(r.status).toBe(200);
        const body = await r.json();
        expect(body.redirect).toEqual({ from: 'elder', to: 'elderberry', permanent: true });
        expect(body.data).toMatchObject({ id: ids.elder, slug: 'elderberry' });
        const current = await (await get('/api/v1/pages/elderberry')).json();
        expect(current.redirect).toBeNull();
      });

      it('answers 404 NOT_FOUND for unknown and unpublished pages', async () => {
        for (const slug of ['nope', 'secret-plan']) {
          const r = await get(`/api/v1/pages/${slug}`);
          expect(r.status).toBe(404);
          const body = await r.json();
          expect(body.error.code).toBe('NOT_FOUND');
          expect(typeof body.error.message).toBe('string');
        }
      });

      it('pages with page and limit; totalPages is ceil(total / limit)', async () => {
        let body = await (await get('/api/v1/pages?limit=3&page=2&sort=slug')).json();
        expect(body.pagination).toEqual({ total: 7, page: 2, limit: 3, totalPages: 3 });
        expect(body.data.map((p: any) => p.slug)).toEqual(['damson', 'elderberry', 'notes']);
        body = await (await get('/api/v1/pages?limit=3&page=3&sort=slug')).json();
        expect(body.data.map((p: any) => p.slug)).toEqual(['seo']);
        body = await (await get('/api/v1/pages?limit=3&page=9')).json();
        expect(body).toEqual({ data: [], pagination: { total: 7, page: 9, limit: 3, totalPages: 3 } });
        body = await (await get('/api/v1/pages?limit=100')).json();
        expect(body.pagination.limit).toBe(100);
        // The largest page number answers (empty) rather than failing.
        body = await (await get('/api/v1/pages?limit=100&page=2147483647')).json();
        expect(body).toEqual({ data: [], pagination: { total: 7, page: 2147483647, limit: 100, totalPages: 1 } });
        body = await (await get('/api/v1/pages?limit=1')).json();
        expect(body.pagination).toEqual({ total: 7, page: 1, limit: 1, totalPages: 7 });
      });

      it('refuses page and limit out of bounds with 400 INVALID_QUERY', async () => {
        for (const q of ['page=0', 'page=-1', 'page=abc', 'page=1.5', 'page=2147483648', 'page=99999999999999999999', 'limit=0', 'limit=101', 'limit=-5', 'limit=ten', 'limit=2.5', 'limit=1000']) {
          const r = await get(`/api/v1/pages?${q}`);
          expect(r.status, q).toBe(400);
          const body = await r.json();
          expect(body.error.code, q).toBe('INVALID_QUERY');
          expect(body.error.details.parameter, q).toBe(q.split('=')[0]);
        }
      });

      it('sorts by each allowed key, ascending or descending with -', async () => {
        const slugs = async (sort: string) => (await (await get(`/api/v1/pages?sort=${sort}`)).json()).data.map((p: any) => p.slug);
        const bySlug = ['apple', 'banana', 'cherry', 'damson', 'elderberry', 'notes', 'seo'];
        expect(await slugs('slug')).toEqual(bySlug);
        expect(await slugs('-slug')).toEqual([...bySlug].reverse());
        // Created a second apart in seed order.
        expect(await slugs('createdAt')).toEqual(['cherry', 'apple', 'elderberry', 'banana', 'damson', 'notes', 'seo']);
        expect(await slugs('-createdAt')).toEqual(['seo', 'notes', 'damson', 'banana', 'elderberry', 'apple', 'cherry']);
        expect(await slugs('publishedAt')).toEqual(['cherry', 'apple', 'elderberry', 'banana', 'damson', 'notes', 'seo']);
        expect(await slugs('-publishedAt')).toEqual(['seo', 'notes', 'damson', 'banana', 'elderberry', 'apple', 'cherry']);
        // elder was updated (renamed) last of the seed.
        expect((await slugs('-updatedAt'))[1]).toBe('elderberry');
        expect((await slugs('updatedAt'))[0]).toBe('cherry');
        const names = async (sort: string) => (await (await get(`/api/v1/pages?sort=${sort}`)).json()).data.map((p: any) => p.name);
        expect(await names('name')).toEqual(['Apple', 'Banana', 'Banana', 'Cherry', 'Elder', 'Notes', 'Seo']);
        expect(await names('-name')).toEqual(['Seo', 'Notes', 'Elder', 'Cherry', 'Banana', 'Banana', 'Apple']);
      });

      it('applies several sort keys, primary first', async () => {
        const slugs = async (sort: string) => (await (await get(`/api/v1/pages?sort=${sort}`)).json()).data.map((p: any) => p.slug);
        expect((await slugs('name,-slug')).slice(0, 3)).toEqual(['apple', 'damson', 'banana']);
        expect((await slugs('name,slug')).slice(0, 3)).toEqual(['apple', 'banana', 'damson']);
        expect((await slugs('-name,-createdAt')).slice(-3)).toEqual(['damson', 'banana', 'apple']);
      });

      it('refuses sort keys that are not allowed with 400 INVALID_QUERY', async () => {
        for (const sort of ['title', '_sortOrder', 'id', '-fields.title', 'name,bogus']) {
          const r = await get(`/api/v1/pages?sort=${sort}`);
          expect(r.status, sort).toBe(400);
          const body = await r.json();
          expect(body.error.code).toBe('INVALID_QUERY');
          expect(body.error.details.parameter).toBe('sort');
        }
      });

      it('filters by page type with pageType or filter[pageTypeId] (a slug)', async () => {
        for (const q of ['pageType=article', 'filter[pageTypeId]=article', 'filter[pageTypeId][eq]=article']) {
          const body = await (await get(`/api/v1/pages?${q}`)).json();
          expect(body.data.map((p: any) => p.slug), q).toEqual(['notes']);
          expect(body.pagination.total).toBe(1);
          expect(body.data[0].type).toBe('article');
        }
        const landing = await (await get('/api/v1/pages?pageType=landing&limit=2')).json();
        expect(landing.pagination).toEqual({ total: 6, page: 1, limit: 2, totalPages: 3 });
        const none = await (await get('/api/v1/pages?pageType=nothing-like-this')).json();
        expect(none).toEqual({ data: [], pagination: { total: 0, page: 1, limit: 20, totalPages: 0 } });
      });

      it('refuses any other filter on pages with 400', async () => {
        for (const q of ['filter[name]=Apple', 'filter[slug][contains]=a', 'filter[fields.title]=x', 'filter[pageTypeId][ne]=article', 'filter[status]=draft']) {
          const r = await get(`/api/v1/pages?${q}`);
          expect(r.status, q).toBe(400);
          expect((await r.json()).error.code, q).toBe('INVALID_QUERY');
        }
      });
    });
  }

  it('shows published content: draft edits of a published page stay private until published', async () => {
    let r = await h.write('PUT', '/api/v1/pages/banana', { name: 'Banana split', fields: { title: 'Draft title' }, seo: { metaTitle: 'Draft meta' } });
    expect(r.status).toBe(200);
    let body = await (await h.get('/api/v1/pages/banana')).json();
    expect(body.data).toMatchObject({ name: 'Banana split', fields: { title: 'Title of banana' }, seo: { metaTitle: null } });
    r = await h.write('POST', '/api/v1/pages/banana/publish');
    expect(r.status).toBe(200);
    body = await (await h.get('/api/v1/pages/banana')).json();
    expect(body.data).toMatchObject({ fields: { title: 'Draft title' }, seo: { metaTitle: 'Draft meta' } });
  });
});
