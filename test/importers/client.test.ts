import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createButterClient, normaliseApiUrl, SourceRequestError } from '../../src/importers/buttercms/client.js';
import { readSource } from '../../src/importers/buttercms/source.js';
import { expectedCounts, fakeImportConfig } from '../fakes/buttercms/account.js';
import { startFakeButter, type FakeButter, type FakeButterOptions } from '../fakes/buttercms/server.js';

async function withFake<T>(opts: FakeButterOptions, fn: (butter: FakeButter) => Promise<T>): Promise<T> {
  const butter = await startFakeButter(opts);
  try {
    return await fn(butter);
  } finally {
    await butter.close();
  }
}

const apiRequests = (butter: FakeButter) => butter.requests.filter((r) => r.path.startsWith('/v2/'));

async function failureOf(promise: Promise<unknown>): Promise<SourceRequestError> {
  const e = await promise.then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(SourceRequestError);
  return e as SourceRequestError;
}

describe('ButterCMS source client', () => {
  describe('reading the fake account', () => {
    let butter: FakeButter;
    let source: Awaited<ReturnType<typeof readSource>>;
    beforeAll(async () => {
      butter = await startFakeButter();
      const client = createButterClient({ apiKey: butter.token, apiUrl: butter.url, minIntervalMs: 0 });
      source = await readSource(client, { ...fakeImportConfig });
    });
    afterAll(() => butter.close());

    it('sends the token as auth_token on every request, never as a header', () => {
      const requests = apiRequests(butter);
      expect(requests.length).toBeGreaterThan(0);
      for (const r of requests) expect(r.query.auth_token).toBe(butter.token);
    });

    it('asks for 100 pages or items a page, and 10 blog posts', () => {
      for (const r of apiRequests(butter)) {
        if (r.path.startsWith('/v2/pages/') || r.path.startsWith('/v2/content/')) expect(r.query.page_size).toBe('100');
        if (r.path === '/v2/posts/') expect(r.query.page_size).toBe('10');
      }
    });

    it('follows meta.next_page until it is null, reading each list plainly and then with preview=1 (drafts)', () => {
      const pagesOf = (path: string, preview: boolean) => apiRequests(butter)
        .filter((r) => r.path === path && (r.query.preview === '1') === preview).map((r) => r.query.page);
      for (const preview of [false, true]) {
        expect(pagesOf('/v2/content/products/', preview)).toEqual(['1', '2']);
        expect(pagesOf('/v2/posts/', preview)).toEqual(['1', '2', '3']);
        expect(pagesOf('/v2/pages/landing-page/', preview)).toEqual(['1']);
      }
      expect(source.collections.get('products')).toHaveLength(expectedCounts.collections.products);
      expect(source.posts).toHaveLength(expectedCounts.posts);
    });

    it('reads single pages, the configured types, the blog, and the page types met in content', () => {
      expect(source.pages).toHaveLength(expectedCounts.pages);
      expect(source.pages.filter((p) => p.page_type === null)).toHaveLength(expectedCounts.singlePages);
      expect(source.pageTypes.configured).toEqual([...fakeImportConfig.pageTypes]);
      expect(source.pageTypes.discovered).toEqual(expectedCounts.discoverablePageTypes);
      expect(source.pages.filter((p) => p.page_type === 'event-page')).toHaveLength(expectedCounts.pageTypes['event-page']);
      expect([...source.collections.keys()].sort()).toEqual([...fakeImportConfig.collections].sort());
      expect(source.authors).toHaveLength(expectedCounts.authors);
      expect(source.categories).toHaveLength(expectedCounts.categories);
      expect(source.tags).toHaveLength(expectedCounts.tags);
      expect(source.unknownItemIds).toEqual([]);
    });

    it('asks for every path with its trailing slash', () => {
      for (const r of apiRequests(butter)) expect(r.path.endsWith('/')).toBe(true);
    });
  });

  it('discovers collections from reference URIs when none are configured', async () => {
    await withFake({}, async (butter) => {
      const client = createButterClient({ apiKey: butter.token, apiUrl: butter.url, minIntervalMs: 0 });
      const source = await readSource(client, { pageTypes: ['landing-page'], blog: false });
      // landing pages point at people and products; products at people; the event pages they
      // reference at people too. The menu is referenced only from the contact page (a single page).
      expect(source.collectionKeys.configured).toEqual([]);
      expect([...source.collectionKeys.discovered].sort()).toEqual(['navigation_menu_item', 'people', 'products']);
      expect(source.pageTypes.discovered).toContain('event-page');
      expect(source.posts).toEqual([]);
      expect(apiRequests(butter).some((r) => r.path === '/v2/posts/')).toBe(false);
    });
  });

  it('warns about a configured page type or collection the source does not have, and goes on', async () => {
    await withFake({}, async (butter) => {
      const client = createButterClient({ apiKey: butter.token, apiUrl: butter.url, minIntervalMs: 0 });
      const source = await readSource(client, { pageTypes: ['no-such-type'], collections: ['nope'], blog: false });
      expect(source.pageTypes.missing).toEqual(['no-such-type']);
      expect(source.collectionKeys.missing).toEqual(['nope']);
      expect(source.warnings.map((w) => w.message).join('\n')).toMatch(/page type "no-such-type".*no pages/);
      expect(source.warnings.map((w) => w.message).join('\n')).toMatch(/collection "nope"/);
      expect(source.pages.length).toBeGreaterThan(0);
    });
  });

  it('takes the API URL with or without a trailing slash, and with or without /v2', async () => {
    await withFake({}, async (butter) => {
      const origin = butter.url.replace(/\/v2$/, '');
      for (const apiUrl of [`${butter.url}/`, origin, `${origin}/`]) {
        const client = createButterClient({ apiKey: butter.token, apiUrl, minIntervalMs: 0 });
        expect(client.apiUrl).toBe(butter.url);
        const body = await client.get('/pages/*') as { data: unknown[] };
        expect(body.data).toHaveLength(expectedCounts.singlePages);
      }
      expect(apiRequests(butter).every((r) => r.path === '/v2/pages/*/')).toBe(true);
    });
    expect(normaliseApiUrl(undefined)).toBe('https://api.buttercms.com/v2');
    expect(normaliseApiUrl('  ')).toBe('https://api.buttercms.com/v2');
    expect(normaliseApiUrl('https://proxy.example.com/butter/v2///')).toBe('https://proxy.example.com/butter/v2');
  });

  it('spaces requests at least 100 ms apart (as the source records them) by default, downloads included', async () => {
    await withFake({}, async (butter) => {
      const client = createButterClient({ apiKey: butter.token, apiUrl: butter.url });
      await client.get('/pages/*/');
      await client.download(`${butter.account.mediaBaseUrl}/${butter.account.media[0]!.id}`, 1_000_000);
      await client.list('/content/products/', { levels: 1 }, 100, () => []);
      await client.get('/tags/');
      const times = butter.requests.map((r) => r.at);
      expect(times).toHaveLength(5);
      for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(100);
    });
  });

  it('a refused token fails with a message that says so, naming the request without the token', async () => {
    await withFake({ mode: 'bad-token' }, async (butter) => {
      const client = createButterClient({ apiKey: 'wrong-token', apiUrl: butter.url, minIntervalMs: 0 });
      const e = await failureOf(client.get('/pages/*/', { page: 1 }));
      expect(e.failure).toBe('unauthorized');
      expect(e.status).toBe(401);
      expect(e.message).toMatch(/refused the API token/);
      expect(e.message).toContain('Invalid token.');
      expect(e.request).toEqual({ method: 'GET', url: `${butter.url}/pages/*/?page=1` });
      expect(e.message).not.toContain('wrong-token');
      expect(e.message).not.toContain('auth_token');
    });
  });

  it('429 and 5xx fail at once: no retries', async () => {
    await withFake({ mode: 'rate-limited' }, async (butter) => {
      const client = createButterClient({ apiKey: butter.token, apiUrl: butter.url, minIntervalMs: 0 });
      const e = await failureOf(client.get('/tags/'));
      expect(e.failure).toBe('rate-limited');
      expect(e.message).toContain('API Calls limit reached.');
      expect(butter.requests).toHaveLength(1);
    });
    await withFake({ mode: 'fail-midway', failAfterRequests: 1 }, async (butter) => {
      const client = createButterClient({ apiKey: butter.token, apiUrl: butter.url, minIntervalMs: 0 });
      await client.get('/tags/');
      const e = await failureOf(client.get('/categories/'));
      expect(e.failure).toBe('server-error');
      expect(e.status).toBe(500);
      expect(e.request.url).toBe(`${butter.url}/categories/`);
      expect(butter.requests).toHaveLength(2);
    });
  });

  it('a download larger than allowed is refused before it is kept', async () => {
    await withFake({}, async (butter) => {
      const client = createButterClient({ apiKey: butter.token, apiUrl: butter.url, minIntervalMs: 0 });
      const asset = butter.account.media[0]!;
      const e = await failureOf(client.download(`${butter.account.mediaBaseUrl}/${asset.id}`, asset.bytes.length - 1));
      expect(e.failure).toBe('too-large');
      const ok = await client.download(`${butter.account.mediaBaseUrl}/${asset.id}`, asset.bytes.length);
      expect(Buffer.from(ok.bytes).equals(asset.bytes)).toBe(true);
      expect(ok.contentType).toBe('image/png');
    });
  });

  it('stops at once when its signal is aborted', async () => {
    await withFake({ mode: 'slow', delayMs: 5_000 }, async (butter) => {
      const controller = new AbortController();
      const client = createButterClient({ apiKey: butter.token, apiUrl: butter.url, minIntervalMs: 0, signal: controller.signal });
      const pending = client.get('/tags/');
      setTimeout(() => controller.abort(), 50);
      const e = await failureOf(pending);
      expect(e.failure).toBe('aborted');
    });
  });
});
