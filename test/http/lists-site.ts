import { afterAll, beforeAll } from 'vitest';
import type { CmsConfig } from '../../src/config.js';
import { createTestCms, type TestCms } from '../helpers/engine.js';
import { expectingSuccess, serveOverSocket, type HttpClient } from '../helpers/http.js';

interface ListsSite {
  t: TestCms;
  http: HttpClient;
  keys: { public: string; secret: string; preview: string };
  close(): Promise<void>;
}

/**
 * The site the public-list suites read: pages of type `landing` (title, a product reference) and
 * items of `products` (price), five of each, published (`page-i`, `product-i` at price i × 10;
 * with `linked`, page-i points at product-i), a public, a secret (content:write) and a preview
 * key, and the server on a real socket.
 */
async function startListsSite(config: Partial<CmsConfig>, options: { linked: boolean }): Promise<ListsSite> {
  const t = await createTestCms({ config: { rateLimit: null, ...config } });
  await t.run('schema.push', {
    pageTypes: [{ definition: { slug: 'landing', name: 'Landing', fields: [
      { name: 'title', type: 'text' },
      { name: 'product', type: 'reference', options: { collectionType: 'products' } },
    ] } }],
    collections: [{ definition: { slug: 'products', name: 'Products', fields: [{ name: 'price', type: 'number' }] } }],
    components: [],
  });
  const keys = {
    public: (await t.run('keys.create', { type: 'public' })).key,
    secret: (await t.run('keys.create', { type: 'secret', permissions: 'content:write' })).key,
    preview: (await t.run('keys.create', { type: 'preview' })).key,
  };
  for (let i = 1; i <= 5; i++) {
    const item = await t.run('items.create', { collectionTypeSlug: 'products', name: `Product ${i}`, slug: `product-${i}`, fields: { price: i * 10 }, status: 'published' });
    const product = options.linked ? { product: { _ref: item.id, _type: 'collectionItem' } } : {};
    await t.run('pages.create', { pageTypeSlug: 'landing', name: `Page ${i}`, slug: `page-${i}`, fields: { title: `Page ${i}`, ...product }, status: 'published' });
  }
  const http = await serveOverSocket(t.cms);
  return { t, http, keys, close: async () => { await http.close(); await t.close(); } };
}

/**
 * The site of `startListsSite` for one suite: started before its tests and closed after them.
 * `get` reads with the public key (or the headers given, `previewHeaders()` for a preview), `write`
 * writes with the secret key (`expectingSuccess`).
 */
export function useListsSite(config: Partial<CmsConfig>, options: { linked: boolean }) {
  let site: ListsSite | undefined;
  const started = (): ListsSite => {
    if (!site) throw new Error('the lists site is not started yet (use it inside a test)');
    return site;
  };
  beforeAll(async () => { site = await startListsSite(config, options); });
  afterAll(async () => { await site?.close(); });
  const { get, write } = expectingSuccess(() => started().http, () => ({ read: started().keys.public, write: started().keys.secret }));
  return {
    get t(): TestCms { return started().t; },
    previewHeaders: () => ({ 'x-api-key': started().keys.public, 'x-preview-key': started().keys.preview }),
    get,
    write,
  };
}
