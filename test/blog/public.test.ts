import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDriver } from '../helpers/db.js';
import { createManualClock } from '../helpers/engine.js';
import { createMediaHarness, makeImage, type MediaHarness } from '../media/support.js';

describe(`public blog API (${testDriver})`, () => {
  let h: MediaHarness;
  let image: { id: string; filename: string; url: string };
  const clock = createManualClock(new Date('2026-03-01T00:00:00.000Z'));
  const run = (op: string, input: unknown) => h.t.run(op, input);

  beforeAll(async () => {
    h = await createMediaHarness({ clock });
    const png = await makeImage('png', 30, 20);
    image = await run('media.upload', { data: png.toString('base64'), filename: 'cover.png', altText: 'A cover' });
    await run('blog.authors.create', { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', bio: 'Writes', profileImageId: image.id, links: { web: 'https://ann.example' } });
    await run('blog.authors.create', { slug: 'bob', firstName: 'Bob', lastName: 'Zed' });
    for (const name of ['News', 'Guides', 'Extra']) await run('blog.categories.create', { name });
    for (const slug of ['js', 'css', 'html']) await run('blog.tags.create', { name: slug.toUpperCase(), slug });
    const post = async (input: Record<string, unknown>) => { clock.advance(60_000); return run('blog.posts.create', input); };
    await post({ title: 'Alpha', summary: 'First', body: '<p>alpha</p>', status: 'published', categories: ['news'], tags: ['js'], author: 'ann-lee', featuredImageId: image.id, seo: { metaTitle: 'Alpha!', ogImageId: image.id } });
    await post({ title: 'Beta', summary: 'Second', body: '<p>beta</p>', status: 'published', categories: ['guides'], tags: ['css'], author: 'bob' });
    await post({ title: 'Gamma', summary: 'Draft', body: '<p>gamma</p>', categories: ['news'], author: 'ann-lee' });
    await post({ title: 'Delta', summary: 'Old', body: '<p>delta</p>', status: 'published', publishedAt: '2025-12-24T10:00:00Z', categories: ['news', 'guides'], tags: ['js', 'css'], author: 'ann-lee' });
  });
  afterAll(async () => { await h.close(); });

  const get = (path: string, headers: Record<string, string> = {}) => h.fetch(path, { headers: { 'x-api-key': h.keys.public, ...headers } });
  const titles = async (path: string, headers?: Record<string, string>) => {
    const res = await get(path, headers);
    expect(res.status, path).toBe(200);
    return ((await res.json()).data as Array<{ title: string }>).map((p) => p.title);
  };

  it('lists published posts, newest first, with pagination and public cache headers', async () => {
    const res = await get('/api/v1/blog/posts');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.map((p: { title: string }) => p.title)).toEqual(['Beta', 'Alpha', 'Delta']);
    expect(body.pagination).toEqual({ total: 3, page: 1, limit: 20, totalPages: 1 });
    expect(res.headers.get('cache-control')).toBe('public, max-age=900, stale-while-revalidate=1800');
    expect(res.headers.get('vary')).toBe('Accept-Encoding, X-Preview-Key, X-API-Key');
    const etag = res.headers.get('etag')!;
    expect(etag).toBeTruthy();
    // Lists carry an ETag but never answer 304.
    expect((await get('/api/v1/blog/posts', { 'if-none-match': etag })).status).toBe(200);
  });

  it('delivers the post shape: author without email, terms, featured image and SEO image resolved', async () => {
    const { data } = await (await get('/api/v1/blog/posts/alpha')).json();
    const resolved = {
      _filename: 'cover.png', _url: `${h.t.config.baseUrl}/api/v1/media/default/${image.filename}`,
      _mimeType: 'image/png', _width: 30, _height: 20, _altText: 'A cover',
    };
    expect(data).toEqual({
      id: expect.any(String), title: 'Alpha', slug: 'alpha', status: 'published', summary: 'First', body: '<p>alpha</p>',
      featuredImageId: image.id, featuredImage: resolved,
      author: { id: expect.any(String), slug: 'ann-lee', firstName: 'Ann', lastName: 'Lee', title: '', bio: 'Writes', profileImage: resolved, links: { web: 'https://ann.example' } },
      categories: [{ id: expect.any(String), slug: 'news', name: 'News' }],
      tags: [{ id: expect.any(String), slug: 'js', name: 'JS' }],
      seo: { metaTitle: 'Alpha!', metaDescription: null, metaRobots: null, ogTitle: null, ogDescription: null, ogImage: resolved, canonicalUrl: null },
      publishedAt: '2026-03-01T00:01:00.000Z', createdAt: '2026-03-01T00:01:00.000Z', updatedAt: '2026-03-01T00:01:00.000Z',
    });
    expect(JSON.stringify(data)).not.toContain('ann@example.test');
  });

  it('delivers featuredImage always resolved: an object, a URL in url mode, or null', async () => {
    const url = await (await get('/api/v1/blog/posts?media=url')).json();
    const alpha = url.data.find((p: { slug: string }) => p.slug === 'alpha');
    expect(alpha.featuredImage).toBe(`${h.t.config.baseUrl}/api/v1/media/default/${image.filename}`);
    expect(alpha.seo.ogImage).toBe(alpha.featuredImage);
    expect(alpha.author.profileImage).toBe(alpha.featuredImage);
    expect(url.data.find((p: { slug: string }) => p.slug === 'beta').featuredImage).toBeNull();
    const other = await (await get('/api/v1/blog/posts/alpha?media=anything')).json();
    expect(other.data.featuredImage).toMatchObject({ _mimeType: 'image/png' });
    const single = await (await get('/api/v1/blog/posts/alpha?media=url')).json();
    expect(single.data.featuredImage).toBe(alpha.featuredImage);
  });

  it('pages with page and limit, refusing values outside 1–100', async () => {
    const res = await (await get('/api/v1/blog/posts?limit=2&page=2')).json();
    expect(res.data.map((p: { title: string }) => p.title)).toEqual(['Delta']);
    expect(res.pagination).toEqual({ total: 3, page: 2, limit: 2, totalPages: 2 });
    expect((await (await get('/api/v1/blog/posts?page=9')).json()).data).toEqual([]);
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'page=0', 'page=-1', 'page=1.5']) {
      const bad = await get(`/api/v1/blog/posts?${q}`);
      expect(bad.status, q).toBe(400);
      const body = await bad.json();
      expect(body.error.code, q).toBe('INVALID_QUERY');
      expect(body.error.details.parameter, q).toBe(q.split('=')[0]);
    }
  });

  it('sorts by createdAt, updatedAt, publishedAt, title and slug, descending with -, several keys', async () => {
    expect(await titles('/api/v1/blog/posts?sort=title')).toEqual(['Alpha', 'Beta', 'Delta']);
    expect(await titles('/api/v1/blog/posts?sort=-title')).toEqual(['Delta', 'Beta', 'Alpha']);
    expect(await titles('/api/v1/blog/posts?sort=slug')).toEqual(['Alpha', 'Beta', 'Delta']);
    expect(await titles('/api/v1/blog/posts?sort=createdAt')).toEqual(['Alpha', 'Beta', 'Delta']);
    expect(await titles('/api/v1/blog/posts?sort=-updatedAt')).toEqual(['Delta', 'Beta', 'Alpha']);
    expect(await titles('/api/v1/blog/posts?sort=publishedAt')).toEqual(['Delta', 'Alpha', 'Beta']);
    // A draft with Delta's publishedAt makes the second key decide (seen with a preview key).
    await run('blog.posts.create', { title: 'Epsilon', publishedAt: '2025-12-24T10:00:00Z' });
    const preview = { 'x-preview-key': h.keys.preview };
    expect(await titles('/api/v1/blog/posts?sort=-publishedAt,title', preview)).toEqual(['Beta', 'Alpha', 'Delta', 'Epsilon', 'Gamma']);
    expect(await titles('/api/v1/blog/posts?sort=-publishedAt,-title', preview)).toEqual(['Beta', 'Alpha', 'Epsilon', 'Delta', 'Gamma']);
    await run('blog.posts.delete', { id: 'epsilon' });
    for (const q of ['sort=name', 'sort=-status', 'sort=title,bogus']) {
      const bad = await get(`/api/v1/blog/posts?${q}`);
      expect(bad.status, q).toBe(400);
      expect((await bad.json()).error.code).toBe('INVALID_QUERY');
    }
  });

  it('filters by category, tag and author slug', async () => {
    expect(await titles('/api/v1/blog/posts?category=news')).toEqual(['Alpha', 'Delta']);
    expect(await titles('/api/v1/blog/posts?tag=css')).toEqual(['Beta', 'Delta']);
    expect(await titles('/api/v1/blog/posts?author=ann-lee')).toEqual(['Alpha', 'Delta']);
    expect(await titles('/api/v1/blog/posts?category=guides&tag=js')).toEqual(['Delta']);
    expect(await titles('/api/v1/blog/posts?category=news&author=bob')).toEqual([]);
    expect(await titles('/api/v1/blog/posts?tag=nope')).toEqual([]);
    const counted = await (await get('/api/v1/blog/posts?category=news&limit=1')).json();
    expect(counted.pagination).toEqual({ total: 2, page: 1, limit: 1, totalPages: 2 });
    // filter[...] is for collections: refused here as on the page list.
    const filtered = await get('/api/v1/blog/posts?filter[title]=Alpha');
    expect(filtered.status).toBe(400);
    expect((await filtered.json()).error).toMatchObject({ code: 'INVALID_QUERY', details: { parameter: 'filter[title]' } });
  });

  it('selects members with fields; id, title, slug, seo, the dates and featuredImage always come', async () => {
    const always = ['featuredImage', 'id', 'publishedAt', 'seo', 'slug', 'title', 'updatedAt'];
    const pick = async (q: string) => Object.keys((await (await get(`/api/v1/blog/posts/alpha?${q}`)).json()).data).sort();
    expect(await pick('fields=summary,tags')).toEqual([...always, 'summary', 'tags'].sort());
    expect(await pick('fields=-body,-author')).not.toContain('body');
    expect(await pick('fields=-body,-author')).toContain('summary');
    expect(await pick('fields=summary,-summary')).toEqual([...always, 'summary'].sort());
    expect(await pick('fields=-title')).toContain('title');
    expect(await pick('fields=-featuredImage')).toContain('featuredImage');
    expect(await pick('fields=nothing-like-this')).toEqual(always);
    expect((await pick('fields=')).length).toBe(15);
    const list = await (await get('/api/v1/blog/posts?fields=featuredImage')).json();
    expect(Object.keys(list.data[0]).sort()).toEqual(always);
  });

  it('shows drafts to a preview key, never cached; refuses an invalid preview key', async () => {
    const res = await get('/api/v1/blog/posts', { 'x-preview-key': h.keys.preview });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store, max-age=0');
    const body = await res.json();
    expect(body.data.map((p: { title: string }) => p.title)).toEqual(['Beta', 'Alpha', 'Delta', 'Gamma']);
    expect(body.data.find((p: { title: string }) => p.title === 'Gamma')).toMatchObject({ status: 'draft', publishedAt: null });
    // The preview key reads on its own too, from the query string.
    const alone = await h.fetch(`/api/v1/blog/posts/gamma?preview=${h.keys.preview}`);
    expect(alone.status).toBe(200);
    expect(alone.headers.get('cache-control')).toBe('private, no-store, max-age=0');
    expect((await get('/api/v1/blog/posts/gamma')).status).toBe(404);
    expect(await titles('/api/v1/blog/posts?category=news', { 'x-preview-key': h.keys.preview })).toEqual(['Alpha', 'Delta', 'Gamma']);
    const bad = await get('/api/v1/blog/posts', { 'x-preview-key': 'preview_not-a-real-key' });
    expect(bad.status).toBe(401);
    expect((await bad.json()).error.code).toBe('INVALID_PREVIEW_KEY');
  });

  it('answers a single post with ETag and 304, and 404 or 401 otherwise', async () => {
    const res = await get('/api/v1/blog/posts/beta');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=900, stale-while-revalidate=1800');
    const etag = res.headers.get('etag')!;
    const again = await get('/api/v1/blog/posts/beta', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect((await get('/api/v1/blog/posts/nope')).status).toBe(404);
    expect((await h.fetch('/api/v1/blog/posts/beta')).status).toBe(401);
    expect((await h.fetch('/api/v1/blog/posts')).status).toBe(401);
    expect((await h.fetch('/api/v1/blog/posts', { headers: { 'x-api-key': h.keys.secret } })).status).toBe(200);
  });

  it('lists categories, tags and authors with pagination; authors without email', async () => {
    const cats = await (await get('/api/v1/blog/categories')).json();
    expect(cats.data.map((c: { slug: string }) => c.slug)).toEqual(['extra', 'guides', 'news']);
    expect(cats.pagination).toEqual({ total: 3, page: 1, limit: 20, totalPages: 1 });
    const tags = await get('/api/v1/blog/tags?limit=2');
    expect(tags.headers.get('cache-control')).toBe('public, max-age=900, stale-while-revalidate=1800');
    const tagBody = await tags.json();
    expect(tagBody.data).toEqual([{ id: expect.any(String), slug: 'css', name: 'CSS' }, { id: expect.any(String), slug: 'html', name: 'HTML' }]);
    expect(tagBody.pagination).toEqual({ total: 3, page: 1, limit: 2, totalPages: 2 });
    const authors = await (await get('/api/v1/blog/authors?media=url')).json();
    expect(authors.data.map((a: { slug: string }) => a.slug)).toEqual(['ann-lee', 'bob']);
    expect(authors.data[0].profileImage).toBe(`${h.t.config.baseUrl}/api/v1/media/default/${image.filename}`);
    expect(authors.data[1].profileImage).toBeNull();
    expect(JSON.stringify(authors)).not.toContain('email');
    expect((await get('/api/v1/blog/tags?limit=500')).status).toBe(400);
    expect((await get('/api/v1/blog/authors?page=0')).status).toBe(400);
    expect((await h.fetch('/api/v1/blog/categories')).status).toBe(401);
    const preview = await h.fetch('/api/v1/blog/tags', { headers: { 'x-preview-key': h.keys.preview } });
    expect(preview.headers.get('cache-control')).toBe('private, no-store, max-age=0');
  });

  it('drops cached answers when the blog changes', async () => {
    expect(await titles('/api/v1/blog/posts?sort=title')).toEqual(['Alpha', 'Beta', 'Delta']);
    await run('blog.posts.update', { id: 'beta', title: 'Bravo' });
    expect(await titles('/api/v1/blog/posts?sort=title')).toEqual(['Alpha', 'Bravo', 'Delta']);
    await run('blog.posts.unpublish', { id: 'alpha' });
    expect(await titles('/api/v1/blog/posts?sort=title')).toEqual(['Bravo', 'Delta']);
    await run('media.update', { id: image.id, altText: 'New alt' });
    const delta = await (await get('/api/v1/blog/authors')).json();
    expect(delta.data[0].profileImage._altText).toBe('New alt');
  });
});
