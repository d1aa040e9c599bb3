import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MigrationView } from '../../src/core/migrations/index.js';
import { rowsOf } from '../../src/lib/rows.js';
import { MEDIA_IDS, expectedCounts } from '../fakes/buttercms/account.js';
import { startFakeButter, type FakeButter, type FakeButterRequest } from '../fakes/buttercms/server.js';
import { serveOverSocket, type HttpClient } from '../helpers/http.js';
import { createImportHarness, type ImportHarness } from './support.js';

/**
 * One full import of the fake account with the contract's 100 ms spacing, read back through the
 * public API; then a second migration of the same source.
 */
describe('full import of a ButterCMS account', () => {
  let h: ImportHarness;
  let butter: FakeButter;
  let http: HttpClient;
  let key: string;
  let first: MigrationView;
  let firstRequests: FakeButterRequest[];
  let firstMs: number;

  const get = async (path: string): Promise<any> => {
    const res = await http.fetch(path, { headers: { 'x-api-key': key } });
    expect(res.status, `${path}: ${res.status}`).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    h = await createImportHarness({});
    butter = await startFakeButter();
    const started = Date.now();
    first = await h.migrate(butter, 'full');
    firstMs = Date.now() - started;
    firstRequests = [...butter.requests];
    key = (await h.run<{ key: string }>('keys.create', { type: 'public' })).key;
    http = await serveOverSocket(h.cms);
  }, 600_000);
  afterAll(async () => {
    await http?.close();
    await butter?.close();
    await h?.close();
  });

  it('completes, with counts per kind and media imported and deduplicated', async () => {
    expect(first.status, first.error ?? '').toBe('completed');
    expect(first.error).toBeNull();
    expect(first.progress).toEqual({ phase: 'done', done: 1, total: 1 });
    expect(first.stats).toMatchObject({
      components: expectedCounts.components.length,
      pageTypes: 3 + expectedCounts.singlePages,
      collections: 3,
      pages: expectedCounts.pages,
      collectionItems: expectedCounts.collectionItems,
      media: expectedCounts.media.uniqueContents,
      mediaDeduplicated: expectedCounts.media.urls - expectedCounts.media.uniqueContents,
      mediaSkipped: 0,
      blogPosts: expectedCounts.posts,
      blogAuthors: expectedCounts.authors,
      blogCategories: expectedCounts.categories,
      blogTags: expectedCounts.tags,
      skipped: 0,
    });
    const logs = await h.logs(first.id);
    expect(logs.filter((l) => l.level === 'error')).toEqual([]);
    expect(logs.map((l) => l.level).every((l) => ['error', 'warning', 'info'].includes(l))).toBe(true);
    expect((await h.contentCounts()).media).toBe(expectedCounts.media.uniqueContents);
    expect(first.stats.sourceWaitMs).toBeGreaterThanOrEqual(0);
    console.info(`full import of the fake account: ${firstMs} ms, ${firstRequests.length} source requests, ${first.stats.sourceWaitMs} ms waiting for the 100 ms spacing`);
  });

  it('leaves planner statistics of the tables it wrote (PGlite has no autovacuum to gather them)', async () => {
    const result = await h.cms.db.execute(sql.raw(
      "select tablename, count(*)::int as n from pg_stats where schemaname = 'public' " +
      "and tablename in ('pages', 'collection_items', 'media', 'blog_posts') group by tablename order by tablename",
    ));
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ tablename: string; n: number }>;
    expect(rows.map((r) => r.tablename)).toEqual(['blog_posts', 'collection_items', 'media', 'pages']);
    for (const r of rows) expect(r.n, r.tablename).toBeGreaterThan(0);
  });

  it('spaces source requests at least 100 ms apart as the source records them, media downloads included', () => {
    expect(firstRequests.length).toBe(first.stats.sourceRequests);
    expect(firstRequests.some((r) => r.path.startsWith('/media/'))).toBe(true);
    for (let i = 1; i < firstRequests.length; i += 1) {
      expect(firstRequests[i]!.at - firstRequests[i - 1]!.at, `${firstRequests[i - 1]!.path} → ${firstRequests[i]!.path}`).toBeGreaterThanOrEqual(100);
    }
  });

  it('creates the schema: kebab-case components, a page type per single page, the discovered page type', async () => {
    const types = await h.run<Record<string, Array<{ slug: string; fields: Array<{ name: string; type: string; options?: any }> }>>>('schema.pull', {});
    expect(types.components!.map((c) => c.slug).sort()).toEqual(expectedCounts.components);
    expect(types.pageTypes!.map((t) => t.slug).sort()).toEqual(['about', 'contact', 'event-page', 'home', 'landing-page', 'product-page']);
    expect(types.collections!.map((t) => t.slug).sort()).toEqual(['navigation-menu-item', 'people', 'products']);
    const landing = types.pageTypes!.find((t) => t.slug === 'landing-page')!;
    const field = (name: string) => landing.fields.find((f) => f.name === name)!;
    expect(field('intro').type).toBe('wysiwyg');
    expect(field('hero_image').type).toBe('image');
    expect(field('launch_date').type).toBe('date');
    expect(field('price').type).toBe('number');
    expect(field('is_featured').type).toBe('boolean');
    expect(field('seo')).toMatchObject({ type: 'nestedComponent', options: { componentSlug: 'seo' } });
    expect(field('body')).toMatchObject({ type: 'componentPicker' });
    expect(field('faq')).toMatchObject({ type: 'repeater' });
    expect(field('author')).toMatchObject({ type: 'reference', options: { referenceType: 'collectionItem', collectionType: 'people', multiple: false } });
    expect(field('related_products')).toMatchObject({ type: 'reference', options: { collectionType: 'products', multiple: true } });
    expect(field('featured_event')).toMatchObject({ type: 'reference', options: { referenceType: 'page', pageType: 'event-page' } });
    // Fields of files are image fields, PDFs among them too (the contract: file uploads become image).
    const products = types.collections!.find((t) => t.slug === 'products')!;
    expect(products.fields.find((f) => f.name === 'image')!.type).toBe('image');
    expect(products.fields.find((f) => f.name === 'spec_sheet')!.type).toBe('image');
  });

  it('serves every page through the public API, published as in the source', async () => {
    const all = await get('/api/v1/pages?limit=100');
    expect(all.pagination.total).toBe(expectedCounts.pages);
    for (const [type, n] of Object.entries(expectedCounts.pageTypes)) {
      expect((await get(`/api/v1/pages?pageType=${type}&limit=100`)).pagination.total).toBe(n);
    }
    const { data } = await get('/api/v1/pages/spring-launch');
    expect(data).toMatchObject({ slug: 'spring-launch', name: 'Spring Launch', type: 'landing-page', publishedAt: '2024-04-02T09:15:22.318Z' });
    expect(data.seo).toMatchObject({ metaTitle: 'Spring Launch | Acme', metaDescription: 'Everything new this spring.' });
  });

  it('delivers components with their kebab-case _type', async () => {
    const { data } = await get('/api/v1/pages/spring-launch');
    expect(data.fields.seo).toMatchObject({ _type: 'seo', title: 'Spring Launch | Acme' });
    expect(data.fields.body.map((c: { _type: string }) => c._type)).toEqual(['hero', 'two-column-with-image']);
    expect(data.fields.body[1]).toMatchObject({ headline: 'Built tough', subheadline: '<p>Steel frame.</p>', image_position: 'right' });
    expect(data.fields.faq).toEqual([
      { question: 'Does it ship worldwide?', answer: 'Yes.' },
      { question: 'Warranty?', answer: 'One year.' },
    ]);
    const home = (await get('/api/v1/pages/home')).data;
    expect(home.fields.hero_banner._type).toBe('hero-banner');
  });

  it('resolves media to the imported files, one file for the same bytes under two URLs', async () => {
    const { data } = await get('/api/v1/pages/spring-launch');
    const hero = data.fields.hero_image;
    expect(hero._mimeType).toBe('image/png');
    // Named after whichever of the two URLs with these bytes came first.
    expect([MEDIA_IDS.springHero, MEDIA_IDS.springHeroCopy]).toContain(hero._filename);
    const source = butter.account.media.find((m) => m.id === MEDIA_IDS.springHero)!;
    expect(hero).toMatchObject({ _width: source.width, _height: source.height });
    const file = await http.fetch(new URL(hero._url).pathname);
    expect(file.status).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(source.sha256);
    // The home page's banner uses a second URL with the same bytes: the same media.
    const home = (await get('/api/v1/pages/home')).data;
    expect(home.fields.hero_banner.image._url).toBe(hero._url);
  });

  it('gives field media the alt text of the source\'s media library, read with alt_media_text=1', async () => {
    const contentReads = butter.requests.filter((r) => /^\/v2\/(pages|content)\//.test(r.path));
    expect(contentReads.length).toBeGreaterThan(0);
    for (const r of contentReads) expect(r.query).toMatchObject({ alt_media_text: '1' });
    const altOf = (id: string) => butter.account.media.find((m) => m.id === id)!.alt;
    const hero = (await get('/api/v1/pages/spring-launch')).data.fields.hero_image;
    // The same bytes under two URLs are one media item: it has the alt text of the first met.
    expect([altOf(MEDIA_IDS.springHero), altOf(MEDIA_IDS.springHeroCopy)]).toContain(hero._altText);
    const people = (await get('/api/v1/collections/people?limit=100')).data;
    const coyote = people.find((p: { name: string }) => p.name === 'Wile E. Coyote');
    expect(coyote.fields.photo).toMatchObject({ _mimeType: 'image/png', _altText: altOf(MEDIA_IDS.coyotePhoto) });
  });

  it('keeps the source\'s times: a page\'s last update and first appearance, a post\'s creation and last update', async () => {
    const iso = (t: string) => new Date(t).toISOString();
    const ours = new Map<string, { updatedAt: string }>((await get('/api/v1/pages?limit=100')).data.map((p: { slug: string; updatedAt: string }) => [p.slug, p]));
    const pages = butter.account.pages.filter((p) => ours.has(p.slug));
    // Pages written whole at once, and pages completed by the second pass (a reference cycle).
    expect(pages.map((p) => p.slug)).toEqual(expect.arrayContaining(['spring-launch', 'home']));
    for (const p of pages) expect(ours.get(p.slug)!.updatedAt, p.slug).toBe(iso(p.updated));
    const [page] = rowsOf<{ created_at: Date | string }>(await h.cms.db.execute(sql`select created_at from pages where slug = ${'spring-launch'} and deleted_at is null`));
    // ButterCMS pages have no creation time: the earliest the source shows, here when it was published.
    expect(new Date(page!.created_at).toISOString()).toBe('2024-04-02T09:15:22.318Z');
    const post = (await get('/api/v1/blog/posts/anvils-101')).data;
    expect(post).toMatchObject({ createdAt: '2024-05-10T08:12:40.551Z', updatedAt: '2024-05-11T10:00:03.004Z' });
  });

  it('points media inside HTML at the imported files', async () => {
    const about = (await get('/api/v1/pages/about')).data;
    expect(about.fields.body).toContain('/api/v1/media/default/');
    expect(about.fields.body).not.toContain(butter.account.mediaBaseUrl);
  });

  it('resolves references to collection items and to pages, cycles included', async () => {
    const { data } = await get('/api/v1/pages/spring-launch');
    expect(data.fields.author).toMatchObject({ _type: 'people', name: 'Wile E. Coyote', role: 'Engineer' });
    expect(data.fields.author.photo).toMatchObject({ _mimeType: 'image/png' });
    expect(data.fields.related_products.map((p: { name: string; _type: string }) => [p._type, p.name]))
      .toEqual([['products', 'Rocket Skates'], ['products', 'Giant Magnet']]);
    expect(data.fields.featured_event).toMatchObject({ _type: 'page', slug: 'acme-expo-2024', type: 'event-page' });
    // Product pages point at each other: the cycle is closed by the second pass.
    const skates = (await get('/api/v1/pages/rocket-skates')).data;
    expect(skates.fields.related_pages.map((p: { slug: string }) => p.slug)).toEqual(['giant-magnet', 'acme-anvil']);
    const magnet = (await get('/api/v1/pages/giant-magnet')).data;
    expect(magnet.fields.related_pages.map((p: { slug: string }) => p.slug)).toEqual(['rocket-skates', 'acme-anvil']);
    const event = (await get('/api/v1/pages/acme-expo-2024')).data;
    expect(event.fields.agenda[0].speaker).toMatchObject({ _type: 'people', name: 'Wile E. Coyote' });
  });

  it('serves the collections, items referencing items', async () => {
    const products = await get('/api/v1/collections/products?limit=100');
    expect(products.pagination.total).toBe(expectedCounts.collections.products);
    const people = await get('/api/v1/collections/people?limit=100');
    expect(people.pagination.total).toBe(expectedCounts.collections.people);
    const marvin = people.data.find((p: { name: string }) => p.name === 'Marvin Martian');
    expect(marvin.fields.mentor).toMatchObject({ _type: 'people', name: 'Wile E. Coyote' });
    const sheets = products.data.map((p: { fields: { spec_sheet?: { _mimeType: string } } }) => p.fields.spec_sheet?._mimeType).filter(Boolean);
    expect(sheets).toContain('application/pdf');
    expect(sheets).toContain('image/png');
    const menu = await get('/api/v1/collections/navigation-menu-item?limit=100');
    const productsEntry = menu.data.find((m: { name: string }) => m.name === 'Products');
    expect(productsEntry.fields.featured_products.map((p: { sku: string }) => p.sku)).toEqual(['RS-1', 'GM-9', expect.any(String)]);
  });

  it('serves the blog: posts with author, terms and featured image, published as in the source', async () => {
    const posts = await get('/api/v1/blog/posts?limit=100');
    expect(posts.pagination.total).toBe(expectedCounts.posts);
    const post = (await get('/api/v1/blog/posts/anvils-101')).data;
    expect(post).toMatchObject({ title: 'Anvils 101', publishedAt: '2024-05-10T08:00:00.000Z', summary: 'Everything you need to know about anvils.' });
    expect(post.author).toMatchObject({ slug: 'road-runner', firstName: 'Road', lastName: 'Runner' });
    expect(post.author.profileImage).toMatchObject({ _mimeType: 'image/png' });
    expect(post.featuredImage).toMatchObject({ _mimeType: 'image/png', _altText: 'An anvil on a cliff' });
    expect(post.categories.map((c: { slug: string }) => c.slug)).toEqual(['guides']);
    expect(post.tags.map((t: { slug: string }) => t.slug)).toEqual(['hardware']);
    expect(post.seo).toMatchObject({ metaTitle: 'Anvils 101 – Acme Blog' });
    expect(post.body).toContain('/api/v1/media/default/');
    expect((await get('/api/v1/blog/authors?limit=100')).pagination.total).toBe(expectedCounts.authors);
    expect((await get('/api/v1/blog/categories?limit=100')).pagination.total).toBe(expectedCounts.categories);
    expect((await get('/api/v1/blog/tags?limit=100')).pagination.total).toBe(expectedCounts.tags);
  });

  it('a second migration of the same source is a new record that makes fresh copies, media and authors matched', async () => {
    const second = await h.migrate(butter, 'incremental');
    expect(second.id).not.toBe(first.id);
    expect(second.status, second.error ?? '').toBe('completed');
    expect(second.stats).toMatchObject({
      pages: expectedCounts.pages,
      collectionItems: expectedCounts.collectionItems,
      blogPosts: expectedCounts.posts,
      media: 0,
      mediaDeduplicated: expectedCounts.media.urls,
      blogAuthors: 0,
      blogAuthorsMatched: expectedCounts.authors,
      blogCategories: 0,
      blogCategoriesMatched: expectedCounts.categories,
      blogTags: 0,
      blogTagsMatched: expectedCounts.tags,
    });
    const counts = await h.contentCounts();
    expect(counts).toMatchObject({
      pages: 2 * expectedCounts.pages,
      collection_items: 2 * expectedCounts.collectionItems,
      blog_posts: 2 * expectedCounts.posts,
      media: expectedCounts.media.uniqueContents,
      blog_authors: expectedCounts.authors,
      blog_categories: expectedCounts.categories,
      blog_tags: expectedCounts.tags,
      page_types: 3 + expectedCounts.singlePages,
    });
    // The copy got a free slug; its references point at the copies.
    const copy = (await get('/api/v1/pages/spring-launch-2')).data;
    const original = (await get('/api/v1/pages/spring-launch')).data;
    expect(copy.fields.author.id).not.toBe(original.fields.author.id);
    expect(copy.fields.featured_event.slug).toBe('acme-expo-2024-2');
    expect(copy.fields.hero_image._url).toBe(original.fields.hero_image._url);
    expect((await get('/api/v1/blog/posts/anvils-101-2')).data.author.id).toBe(original && (await get('/api/v1/blog/posts/anvils-101')).data.author.id);
    const list = await h.run<MigrationView[]>('migrations.list', {});
    expect(list.map((m) => m.id)).toEqual([second.id, first.id]);
  }, 600_000);
});

/**
 * The blog's files are downloaded while the entries are written, up to a byte bound held in
 * memory; past it they are downloaded afterwards. With no room at all, every blog file comes the
 * late way, and the import is the same.
 */
describe('full import with no room to download blog files ahead', () => {
  let h: ImportHarness;
  let butter: FakeButter;

  beforeAll(async () => {
    h = await createImportHarness({ minIntervalMs: 0, blogAheadMaxBytes: 0 });
    butter = await startFakeButter();
  });
  afterAll(async () => {
    await butter?.close();
    await h?.close();
  });

  it('stores every blog file afterwards, with the same counts and alt texts', async () => {
    const run = await h.migrate(butter, 'full');
    expect(run.status, run.error ?? '').toBe('completed');
    expect(run.stats).toMatchObject({
      media: expectedCounts.media.uniqueContents,
      mediaDeduplicated: expectedCounts.media.urls - expectedCounts.media.uniqueContents,
      mediaSkipped: 0,
      blogPosts: expectedCounts.posts,
    });
    expect((await h.contentCounts()).media).toBe(expectedCounts.media.uniqueContents);
    const key = (await h.run<{ key: string }>('keys.create', { type: 'public' })).key;
    const http = await serveOverSocket(h.cms);
    try {
      const res = await http.fetch('/api/v1/blog/posts/anvils-101', { headers: { 'x-api-key': key } });
      const post = (await res.json() as { data: { featuredImage: unknown; author: { profileImage: unknown } } }).data;
      expect(post.featuredImage).toMatchObject({ _mimeType: 'image/png', _altText: 'An anvil on a cliff' });
      expect(post.author.profileImage).toMatchObject({ _mimeType: 'image/png' });
    } finally {
      await http.close();
    }
  }, 600_000);
});
