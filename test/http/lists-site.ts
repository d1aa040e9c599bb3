import type { CmsConfig } from '../../src/config.js';
import { createTestCms, type TestCms } from '../helpers/engine.js';
import { serveOverSocket, type HttpClient } from '../helpers/http.js';

export interface ListsSite {
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
export async function startListsSite(config: Partial<CmsConfig>, options: { linked: boolean }): Promise<ListsSite> {
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
