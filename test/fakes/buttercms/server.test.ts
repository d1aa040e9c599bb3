import { crc32 as zlibCrc32, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_IDS, createFakeAccount, expectedCounts, fakeImportConfig, isPageRef, type RawValue } from './account.js';
import { startFakeButter, type FakeButter, type FakeButterOptions } from './server.js';

type Body = Record<string, unknown> & { meta?: Record<string, unknown>; data?: unknown; detail?: string };

async function call(
  butter: FakeButter,
  path: string,
  query: Record<string, string | number> = {},
  init: { token?: string | null; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: Body }> {
  const url = new URL(`${butter.url}${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  const token = init.token === undefined ? butter.token : init.token;
  if (token !== null) url.searchParams.set('auth_token', token);
  const res = await fetch(url, { headers: init.headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Body };
}

async function walk(butter: FakeButter, path: string, pageSize: number, pick: (body: Body) => unknown[]) {
  const items: unknown[] = [];
  const pages: number[] = [];
  let page: number | null = 1;
  while (page !== null) {
    const { status, body } = await call(butter, path, { page, page_size: pageSize });
    expect(status).toBe(200);
    pages.push(page);
    items.push(...pick(body));
    page = body.meta?.next_page as number | null;
  }
  return { items, pages };
}

async function withFake<T>(opts: FakeButterOptions, fn: (butter: FakeButter) => Promise<T>): Promise<T> {
  const butter = await startFakeButter(opts);
  try {
    return await fn(butter);
  } finally {
    await butter.close();
  }
}

interface Png {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  pixels: Buffer;
}

// Parsed independently of the encoder, so an encoder bug cannot vouch for itself.
function parsePng(bytes: Buffer): Png {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let offset = 8;
  const chunks: Array<{ type: string; data: Buffer }> = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    const crc = bytes.readUInt32BE(offset + 8 + length);
    expect(zlibCrc32(bytes.subarray(offset + 4, offset + 8 + length))).toBe(crc);
    chunks.push({ type, data });
    offset += 12 + length;
  }
  expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
  const ihdr = chunks[0]!.data;
  expect(ihdr.length).toBe(13);
  return {
    width: ihdr.readUInt32BE(0),
    height: ihdr.readUInt32BE(4),
    bitDepth: ihdr[8]!,
    colorType: ihdr[9]!,
    pixels: inflateSync(chunks[1]!.data),
  };
}

describe('fake ButterCMS server', () => {
  let butter: FakeButter;
  beforeAll(async () => {
    butter = await startFakeButter({ token: 'read-token-123' });
  });
  afterAll(async () => {
    await butter.close();
  });

  it('listens on 127.0.0.1 under /v2 and serves the given token', () => {
    expect(butter.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
    expect(butter.token).toBe('read-token-123');
    expect(butter.account.mediaBaseUrl).toBe(`${new URL(butter.url).origin}/media`);
  });

  describe('authentication', () => {
    it('answers a wrong token with 401, the recorded body and WWW-Authenticate', async () => {
      const res = await call(butter, '/pages/*/', {}, { token: 'nope' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Invalid token.' });
      expect(res.headers.get('www-authenticate')).toBe('Token');
      expect(res.headers.get('content-type')).toBe('application/json');
    });

    it('answers a missing token with the DRF "not provided" message', async () => {
      const res = await call(butter, '/posts/', {}, { token: null });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect(res.headers.get('www-authenticate')).toBe('Token');
    });

    it('accepts the token in an Authorization: Token header', async () => {
      const good = await call(butter, '/tags/', {}, { token: null, headers: { Authorization: 'Token read-token-123' } });
      expect(good.status).toBe(200);
      const bad = await call(butter, '/tags/', {}, { token: null, headers: { Authorization: 'Token other' } });
      expect(bad.status).toBe(401);
    });

    it('records every request with its path and query', async () => {
      const before = butter.requests.length;
      await call(butter, '/categories/', { include: 'recent_posts' });
      const last = butter.requests.at(-1)!;
      expect(butter.requests.length).toBe(before + 1);
      expect(last).toMatchObject({ method: 'GET', path: '/v2/categories/', query: { include: 'recent_posts', auth_token: 'read-token-123' } });
      expect(typeof last.at).toBe('number');
    });
  });

  describe('paging', () => {
    it('walks every landing page via next_page at page size 10 and 20', async () => {
      for (const size of [10, 20]) {
        const { items, pages } = await walk(butter, '/pages/landing-page/', size, (b) => b.data as unknown[]);
        expect(items).toHaveLength(expectedCounts.pageTypes['landing-page']);
        expect(pages).toEqual(size === 10 ? [1, 2, 3] : [1, 2]);
        expect(new Set(items.map((p) => (p as { slug: string }).slug)).size).toBe(items.length);
      }
    });

    it('walks all 130 products (more than one page even at the maximum page size)', async () => {
      const { items, pages } = await walk(butter, '/content/products/', 100, (b) => (b.data as { products: unknown[] }).products);
      expect(pages).toEqual([1, 2]);
      expect(items).toHaveLength(130);
      const ids = items.map((i) => (i as { meta: { id: number } }).meta.id);
      expect(new Set(ids).size).toBe(130);
    });

    it('walks all blog posts, newest first', async () => {
      const { items, pages } = await walk(butter, '/posts/', 10, (b) => b.data as unknown[]);
      expect(pages).toEqual([1, 2, 3]);
      expect(items).toHaveLength(expectedCounts.posts);
      const published = items.map((p) => Date.parse((p as { published: string }).published));
      expect([...published].sort((a, b) => b - a)).toEqual(published);
    });

    it('uses the recorded meta key orders for pages/posts and for collections', async () => {
      const pages = await call(butter, '/pages/landing-page/', { page: 2, page_size: 10 });
      expect(Object.keys(pages.body)).toEqual(['meta', 'data']);
      expect(Object.keys(pages.body.meta!)).toEqual(['next_page', 'previous_page', 'count']);
      expect(pages.body.meta).toEqual({ next_page: 3, previous_page: 1, count: 27 });
      const items = await call(butter, '/content/people/', { page: 2, page_size: 5 });
      expect(Object.keys(items.body.meta!)).toEqual(['count', 'next_page', 'previous_page']);
      expect(items.body.meta).toEqual({ count: 12, next_page: 3, previous_page: 1 });
      expect(Object.keys(items.body.data as object)).toEqual(['people']);
    });

    it('defaults to 10 per page and rejects page_size above 100', async () => {
      const res = await call(butter, '/content/products/');
      expect((res.body.data as { products: unknown[] }).products).toHaveLength(10);
      expect(res.body.meta).toEqual({ count: 130, next_page: 2, previous_page: null });
      expect((await call(butter, '/content/products/', { page_size: 100 })).status).toBe(200);
      const tooBig = await call(butter, '/content/products/', { page_size: 101 });
      expect(tooBig.status).toBe(400);
      expect(tooBig.body.detail).toMatch(/page_size/);
    });

    it('answers a page past the end with DRF\'s 404 "Invalid page."', async () => {
      const res = await call(butter, '/posts/', { page: 4, page_size: 10 });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Invalid page.' });
    });
  });

  describe('routes', () => {
    it('tolerates a missing trailing slash', async () => {
      for (const [withSlash, without] of [
        ['/pages/landing-page/', '/pages/landing-page'],
        ['/pages/*/home/', '/pages/*/home'],
        ['/content/people/', '/content/people'],
        ['/posts/anvils-101/', '/posts/anvils-101'],
        ['/authors/', '/authors'],
      ] as const) {
        const a = await call(butter, withSlash);
        const b = await call(butter, without);
        expect(a.status).toBe(200);
        expect(b.body).toEqual(a.body);
      }
    });

    it('serves single pages under /pages/*/ with page_type null', async () => {
      const res = await call(butter, '/pages/*/');
      const data = res.body.data as Array<{ slug: string; page_type: unknown }>;
      expect(res.body.meta).toEqual({ next_page: null, previous_page: null, count: expectedCounts.singlePages });
      expect(data.map((p) => p.slug)).toEqual(['home', 'about', 'contact']);
      expect(data.every((p) => p.page_type === null)).toBe(true);
    });

    it('serves one page by type and slug, or by * and slug; 404 with "Page not found."', async () => {
      const byType = await call(butter, '/pages/landing-page/spring-launch/');
      expect(Object.keys(byType.body)).toEqual(['data']);
      expect(byType.body.data).toMatchObject({ slug: 'spring-launch', page_type: 'landing-page' });
      expect((await call(butter, '/pages/*/spring-launch/')).body).toEqual(byType.body);
      expect((await call(butter, '/pages/*/about/')).body.data).toMatchObject({ slug: 'about', page_type: null });
      for (const path of ['/pages/product-page/spring-launch/', '/pages/*/missing/', '/pages/no-such-type/']) {
        const res = await call(butter, path);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: 'Page not found.' });
      }
    });

    it('keys collection data by the collection key; /content/ alone is {}', async () => {
      const res = await call(butter, '/content/people/', { page_size: 2 });
      const people = (res.body.data as { people: Array<Record<string, unknown>> }).people;
      expect(people[0]).toMatchObject({
        meta: { id: 812001 },
        name: 'Wile E. Coyote',
        role: 'Engineer',
        joined: '2019-03-01T00:00:00',
        active: true,
        years: 5,
      });
      expect(Object.keys(people[0]!)[0]).toBe('meta');
      expect((await call(butter, '/content/')).body).toEqual({});
      const legacy = await call(butter, '/content/', { keys: 'people[_id=812002],navigation_menu_item' });
      expect(Object.keys(legacy.body)).toEqual(['data']);
      const data = legacy.body.data as Record<string, Array<{ meta: { id: number } }>>;
      expect(data.people!.map((p) => p.meta.id)).toEqual([812002]);
      expect(data.navigation_menu_item).toHaveLength(expectedCounts.collections.navigation_menu_item);
    });

    it('answers unknown collections with the recorded 404 bodies', async () => {
      expect((await call(butter, '/content/nonexistent/')).body).toEqual({ detail: 'Not found.' });
      const legacy = await call(butter, '/content/', { keys: 'nonexistent' });
      expect(legacy.status).toBe(404);
      expect(legacy.body).toEqual({ detail: 'Content key nonexistent not found' });
    });

    it('serves posts with and without body, and post detail with neighbours', async () => {
      const withBody = await call(butter, '/posts/', { page_size: 2 });
      const excluded = await call(butter, '/posts/', { page_size: 2, exclude_body: 'true' });
      const first = (withBody.body.data as Array<Record<string, unknown>>)[0]!;
      expect(first).toMatchObject({ slug: 'anvils-101', url: '/anvils-101', title: 'Anvils 101' });
      expect(typeof first.body).toBe('string');
      expect((excluded.body.data as Array<Record<string, unknown>>).every((p) => !('body' in p))).toBe(true);
      expect(first.author).toMatchObject({ slug: 'road-runner', email: 'rr@acme.test' });
      expect(first.tags).toEqual([{ name: 'Hardware', slug: 'hardware' }]);

      const detail = await call(butter, '/posts/anvils-101/');
      expect(detail.body.meta).toEqual({
        next_post: null,
        previous_post: { slug: 'rocket-skates-review', title: 'Rocket skates review', featured_image: null },
      });
      expect(detail.body.data).toMatchObject({ slug: 'anvils-101', url: null, deleted: null });
      expect((await call(butter, '/posts/no-such-post/')).body).toEqual({ detail: 'Not found.' });
    });

    it('filters posts by author, category and tag', async () => {
      const byAuthor = await call(butter, '/posts/', { author_slug: 'wile-e-coyote', page_size: 100 });
      const posts = byAuthor.body.data as Array<{ author: { slug: string } }>;
      expect(posts.length).toBeGreaterThan(1);
      expect(posts.every((p) => p.author.slug === 'wile-e-coyote')).toBe(true);
      const byTag = await call(butter, '/posts/', { tag_slug: 'hardware', page_size: 100 });
      expect((byTag.body.data as Array<{ tags: Array<{ slug: string }> }>).every((p) => p.tags.some((t) => t.slug === 'hardware'))).toBe(true);
    });

    it('serves authors, categories and tags unpaginated, without meta', async () => {
      const authors = await call(butter, '/authors/');
      expect(Object.keys(authors.body)).toEqual(['data']);
      const list = authors.body.data as Array<Record<string, unknown>>;
      expect(list).toHaveLength(expectedCounts.authors);
      expect(list.filter((a) => a.email !== '')).toHaveLength(expectedCounts.authorsWithEmail);
      expect(list.every((a) => !('recent_posts' in a))).toBe(true);

      const withPosts = await call(butter, '/authors/road-runner/', { include: 'recent_posts' });
      const recent = (withPosts.body.data as { recent_posts: Array<Record<string, unknown>> }).recent_posts;
      expect(recent.length).toBeGreaterThan(0);
      expect(recent[0]).toMatchObject({ url: null, deleted: null });

      const categories = await call(butter, '/categories/');
      expect(categories.body).toEqual({ data: butter.account.categories });
      expect(((await call(butter, '/tags/')).body.data as unknown[]).length).toBe(expectedCounts.tags);
      expect((await call(butter, '/tags/no-such-tag/')).status).toBe(404);
    });

    it('serves feeds as XML inside JSON and 404s unknown feeds', async () => {
      const rss = await call(butter, '/feeds/rss/');
      expect(typeof rss.body.data).toBe('string');
      expect(rss.body.data as string).toMatch(/^<\?xml/);
      expect((await call(butter, '/feeds/nope/')).body).toEqual({ detail: 'Not found.' });
    });

    it('searches pages and posts', async () => {
      const pages = await call(butter, '/pages/search/', { query: 'Rocket', page_type: 'product-page' });
      expect((pages.body.data as Array<{ page_type: string }>).every((p) => p.page_type === 'product-page')).toBe(true);
      expect(pages.body.meta).toMatchObject({ count: expect.any(Number) });
      const posts = await call(butter, '/posts/search/', { query: 'anvil' });
      expect((posts.body.data as Array<{ rank: number }>)[0]!.rank).toEqual(expect.any(Number));
    });

    it('rejects writes with 405', async () => {
      const res = await fetch(`${butter.url}/pages/?auth_token=${butter.token}`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(405);
    });

    it('shares authors between posts; some authors have no email', async () => {
      const { items } = await walk(butter, '/posts/', 100, (b) => b.data as unknown[]);
      const bySlug = new Map<string, number>();
      for (const post of items as Array<{ author: { slug: string } }>) bySlug.set(post.author.slug, (bySlug.get(post.author.slug) ?? 0) + 1);
      expect(bySlug.size).toBe(expectedCounts.authors);
      expect([...bySlug.values()].every((n) => n > 1)).toBe(true);
    });
  });

  describe('levels', () => {
    const fieldsOf = (body: Body) => (body.data as { fields: Record<string, unknown> }).fields;

    it('expands references two levels deep by default and emits URI strings beyond', async () => {
      const fields = fieldsOf((await call(butter, '/pages/landing-page/spring-launch/')).body);
      expect(fields.author).toMatchObject({ meta: { id: 812001 }, name: 'Wile E. Coyote' });
      const products = fields.related_products as Array<Record<string, unknown>>;
      expect(products.map((p) => p.name)).toEqual(['Rocket Skates', 'Giant Magnet']);
      expect(products[0]!.designer).toMatch(/^\/v2\/content\/\?keys=people\[_id=\d+\]$/);
      const event = fields.featured_event as { page_type: string; fields: Record<string, unknown> };
      expect(event.page_type).toBe('event-page');
      expect(event.fields.speakers).toEqual(['/v2/content/?keys=people[_id=812001]', '/v2/content/?keys=people[_id=812004]']);
    });

    it('turns every top-level reference into a URI string at levels=1', async () => {
      const fields = fieldsOf((await call(butter, '/pages/landing-page/spring-launch/', { levels: 1 })).body);
      expect(fields.author).toBe('/v2/content/?keys=people[_id=812001]');
      expect(fields.related_products).toEqual([
        '/v2/content/?keys=products[_id=812044]',
        '/v2/content/?keys=products[_id=812045]',
      ]);
      expect(fields.featured_event).toBe('/v2/pages/event-page/acme-expo-2024/');
      // Components and repeaters are not references: they stay embedded.
      expect(Array.isArray(fields.body)).toBe(true);
      expect(fields.seo).toEqual({ title: 'Spring Launch | Acme', description: 'Everything new this spring.' });
    });

    it('goes deeper at levels=3', async () => {
      const fields = fieldsOf((await call(butter, '/pages/landing-page/spring-launch/', { levels: 3 })).body);
      const products = fields.related_products as Array<{ designer: unknown }>;
      expect(products[0]!.designer).toMatchObject({ meta: { id: expect.any(Number) }, name: expect.any(String) });
    });

    it('rejects levels outside 1..5 with 400', async () => {
      for (const levels of ['0', '6', 'two']) {
        const res = await call(butter, '/content/products/', { levels });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ detail: 'levels query parameter should be an integer between 1 and 5 (inclusive)' });
      }
    });

    it('delivers media as { url, alt } with alt_media_text=1', async () => {
      const fields = fieldsOf((await call(butter, '/pages/*/contact/', { alt_media_text: 1 })).body);
      expect(fields.office_photo).toEqual({ url: `${butter.account.mediaBaseUrl}/${MEDIA_IDS.officePhoto}`, alt: 'Acme head office' });
    });
  });

  describe('media', () => {
    it('serves the same bytes under two different URLs', async () => {
      const a = await fetch(`${butter.account.mediaBaseUrl}/${MEDIA_IDS.springHero}`);
      const b = await fetch(`${butter.account.mediaBaseUrl}/${MEDIA_IDS.springHeroCopy}`);
      expect(a.status).toBe(200);
      expect(a.headers.get('content-type')).toBe('image/png');
      const bytesA = Buffer.from(await a.arrayBuffer());
      const bytesB = Buffer.from(await b.arrayBuffer());
      expect(bytesA.length).toBeGreaterThan(50);
      expect(bytesB.equals(bytesA)).toBe(true);
    });

    it('serves valid PNGs whose IHDR matches the asset, each of a distinct size', async () => {
      const sizes = new Set<string>();
      const pngs = butter.account.media.filter((m) => m.contentType === 'image/png');
      for (const asset of pngs) {
        const res = await fetch(`${butter.account.mediaBaseUrl}/${asset.id}`);
        const png = parsePng(Buffer.from(await res.arrayBuffer()));
        expect([png.width, png.height]).toEqual([asset.width, asset.height]);
        expect(png.bitDepth).toBe(8);
        expect(png.colorType).toBe(2);
        expect(png.pixels.length).toBe((png.width * 3 + 1) * png.height);
        if (asset.id !== MEDIA_IDS.springHeroCopy) sizes.add(`${png.width}x${png.height}`);
      }
      expect(sizes.size).toBe(pngs.length - 1);
    });

    it('serves every media URL the content mentions, needs no token, and 404s unknown ids', async () => {
      const landing = await call(butter, '/pages/landing-page/', { page_size: 100 });
      const urls = JSON.stringify(landing.body).match(/http:\/\/127\.0\.0\.1:\d+\/media\/[A-Za-z0-9]{20}/g) ?? [];
      expect(urls.length).toBeGreaterThan(10);
      for (const url of new Set(urls)) expect((await fetch(url)).status).toBe(200);
      expect((await fetch(`${butter.account.mediaBaseUrl}/resize=width:800/${MEDIA_IDS.springHero}`)).status).toBe(200);
      expect((await fetch(`${butter.account.mediaBaseUrl}/doesNotExist00000000`)).status).toBe(404);
    });
  });
});

describe('fake ButterCMS modes', () => {
  it('fail-midway: 500 {"detail":"Server error"} after N successful API requests', async () => {
    await withFake({ mode: 'fail-midway', failAfterRequests: 2 }, async (butter) => {
      // Failed requests do not count towards N.
      expect((await call(butter, '/pages/*/', {}, { token: 'wrong' })).status).toBe(401);
      expect((await call(butter, '/pages/*/')).status).toBe(200);
      expect((await call(butter, '/content/people/')).status).toBe(200);
      const res = await call(butter, '/posts/');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ detail: 'Server error' });
      expect((await call(butter, '/pages/*/')).status).toBe(500);
    });
  });

  it('slow: delays every answer by delayMs', async () => {
    await withFake({ mode: 'slow', delayMs: 120 }, async (butter) => {
      const started = performance.now();
      const res = await call(butter, '/tags/');
      expect(res.status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    });
  });

  it('slow: close() does not wait for answers still pending', async () => {
    const butter = await startFakeButter({ mode: 'slow', delayMs: 10_000 });
    const pending = fetch(`${butter.url}/tags/?auth_token=${butter.token}`).catch((error: unknown) => error);
    await new Promise((r) => setTimeout(r, 50));
    await butter.close();
    expect(await pending).toBeInstanceOf(Error);
  });

  it('bad-token: refuses even the right token', async () => {
    await withFake({ mode: 'bad-token' }, async (butter) => {
      const res = await call(butter, '/pages/*/');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Invalid token.' });
      expect(res.headers.get('www-authenticate')).toBe('Token');
    });
  });

  it('rate-limited: 429 {"detail":"API Calls limit reached."}', async () => {
    await withFake({ mode: 'rate-limited' }, async (butter) => {
      const res = await call(butter, '/content/products/');
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ detail: 'API Calls limit reached.' });
    });
  });

  it('locale: pages and collections in the requested locale; the blog ignores it; an unknown locale is a 400', async () => {
    await withFake({}, async (butter) => {
      butter.account.locales = {
        codes: ['en', 'fr'],
        values: { fr: { pages: { 'spring-launch': { headline: 'Bonjour' } }, items: { 812001: { role: 'Ingénieur' } } } },
      };
      const page = async (locale?: string) => {
        const { body } = await call(butter, '/pages/landing-page/spring-launch/', locale ? { locale } : {});
        return (body.data as { fields: Record<string, unknown> }).fields;
      };
      expect((await page()).headline).toBe('Meet the new Acme Rocket');
      expect((await page('en')).headline).toBe('Meet the new Acme Rocket');
      expect(await page('fr')).toMatchObject({ headline: 'Bonjour', price: 199.99 });
      const people = await call(butter, '/content/people/', { locale: 'fr', page_size: 1 });
      expect((people.body.data as { people: Array<Record<string, unknown>> }).people[0]).toMatchObject({ meta: { id: 812001 }, role: 'Ingénieur' });
      expect((await call(butter, '/posts/', { locale: 'de' })).status).toBe(200);
      const bad = await call(butter, '/pages/*/', { locale: 'de' });
      expect(bad).toMatchObject({ status: 400, body: { locale: ['Invalid locale "de": this account has no such locale.'] } });
    });
    // An account without locales has one, en.
    await withFake({}, async (butter) => {
      expect((await call(butter, '/content/people/', { locale: 'en' })).status).toBe(200);
      expect((await call(butter, '/content/people/', { locale: 'fr' })).status).toBe(400);
    });
  });

  it('accepts a custom account', async () => {
    await withFake(
      {
        account: (base) => {
          const account = createFakeAccount(base);
          account.collections = { only: [{ id: 1, fields: { title: 'x' } }] };
          return account;
        },
      },
      async (butter) => {
        const res = await call(butter, '/content/only/');
        expect(res.body).toEqual({ meta: { count: 1, next_page: null, previous_page: null }, data: { only: [{ meta: { id: 1 }, title: 'x' }] } });
      },
    );
  });
});

describe('fake account', () => {
  const account = createFakeAccount('http://fake.invalid/media');

  it('has the documented expected counts', () => {
    expect(expectedCounts).toEqual({
      pageTypes: { 'landing-page': 27, 'product-page': 5, 'event-page': 3 },
      discoverablePageTypes: ['event-page'],
      singlePages: 3,
      pages: 38,
      collections: { people: 12, products: 130, navigation_menu_item: 8 },
      collectionItems: 150,
      posts: 23,
      authors: 4,
      authorsWithEmail: 2,
      categories: 4,
      tags: 6,
      components: ['feature-list', 'hero', 'hero-banner', 'seo', 'two-column-with-image'],
      media: { urls: 37, urlsOutsideHtml: 35, urlsOnlyInHtml: 2, uniqueContents: 36 },
    });
    // Every media asset is mentioned somewhere, so an importer can reach all of them.
    expect(account.media).toHaveLength(expectedCounts.media.urls);
  });

  it('reaches event pages only through references from other pages', () => {
    expect(fakeImportConfig.pageTypes).not.toContain('event-page');
    const referenced = new Set<string>();
    const visit = (v: RawValue): void => {
      if (isPageRef(v)) referenced.add(v.slug);
      else if (Array.isArray(v)) v.forEach(visit);
      else if (v !== null && typeof v === 'object') Object.values(v).forEach(visit);
    };
    account.pages.filter((p) => p.page_type !== 'event-page').forEach((p) => visit(p.fields));
    const events = account.pages.filter((p) => p.page_type === 'event-page').map((p) => p.slug);
    expect(events.length).toBe(3);
    for (const slug of events) expect(referenced.has(slug)).toBe(true);
  });
});
