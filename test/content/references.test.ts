import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver } from '../../src/core/content/resolve.js';
import type { Db } from '../../src/db/client.js';
import { createContentHarness, doorNames, type ContentHarness } from './support.js';

/** `{ _ref, _type }` resolution by type, bare strings, refTypes, components' `_type`, batching. */
describe('references', () => {
  let h: ContentHarness;
  const ids: Record<string, string> = {};
  let image: { id: string; filename: string };

  beforeAll(async () => {
    h = await createContentHarness();
    image = await h.insertMedia({ width: 20, height: 10, altText: null, originalFilename: 'lamp.png' });
    ids.category = (await h.createItem('categories', { name: 'Lighting', slug: 'lighting', status: 'published', fields: { label: 'Lighting' } })).id;
    ids.lamp = (await h.createItem('products', {
      name: 'Lamp', slug: 'lamp', status: 'published',
      fields: { price: 30, sku: 'LMP', image: { _media: image.id }, category: { _ref: ids.category, _type: 'collectionItem' } },
    })).id;
    ids.chair = (await h.createItem('products', { name: 'Chair', slug: 'chair', status: 'published', fields: { price: 80 } })).id;
    ids.sofa = (await h.createItem('products', { name: 'Sofa', slug: 'sofa', fields: { price: 500 } })).id;
    ids.user = (await h.t.run('users.create', { email: 'ada@example.test', password: 'correct horse battery', role: 'editor', name: 'Ada Lovelace' })).id;
    ids.post = (await h.insertBlogPost({ title: 'Hello world', slug: 'hello-world' })).id;
    ids.draftPost = (await h.insertBlogPost({ title: 'Unfinished', slug: 'unfinished', status: 'draft' })).id;
    ids.about = (await h.createPage({ pageTypeSlug: 'article', name: 'About', slug: 'about', status: 'published', fields: { title: 'About us' } })).id;
    ids.hidden = (await h.createPage({ pageTypeSlug: 'article', name: 'Hidden', slug: 'hidden', fields: { title: 'Soon' } })).id;
    ids.home = (await h.createPage({
      name: 'Home', slug: 'home', status: 'published',
      fields: {
        title: 'Home',
        product: { _ref: ids.lamp, _type: 'collectionItem' },
        products: [{ _ref: ids.chair, _type: 'collectionItem' }, { _ref: ids.sofa, _type: 'collectionItem' }, ids.lamp],
        related: { _ref: ids.about, _type: 'page' },
        author: { _ref: ids.user, _type: 'user' },
        post: { _ref: ids.post, _type: 'blogPost' },
        blocks: [{ _type: 'hero-banner', heading: 'Hi' }, { _type: 'call-to-action', label: 'Buy', href: '/buy' }],
        // The field fixes the component: _type may be left out on write.
        cta: { label: 'Go', href: '/go' },
      },
    })).id;
    ids.bare = (await h.createPage({ name: 'Bare', slug: 'bare', status: 'published', fields: { title: 'Bare', product: ids.lamp, related: ids.about } })).id;
    ids.toDrafts = (await h.createPage({
      name: 'To drafts', slug: 'to-drafts', status: 'published',
      fields: { title: 'Drafts', product: { _ref: ids.sofa, _type: 'collectionItem' }, related: { _ref: ids.hidden, _type: 'page' }, post: { _ref: ids.draftPost, _type: 'blogPost' } },
    })).id;
  });
  afterAll(async () => { await h.close(); });

  for (const door of doorNames) {
    describe(door, () => {
      const get = async (path: string, options: { preview?: boolean } = {}) => {
        const r = await h.get(path, { door, ...(options.preview ? { headers: { 'x-preview-key': h.keys.preview } } : {}) });
        expect(r.status, path).toBe(200);
        return r.json();
      };

      it('resolves a collection item to { _type, id, name, slug, ...its fields }', async () => {
        const { data } = await get('/api/v1/pages/home');
        expect(data.fields.product).toEqual({
          _type: 'products', id: ids.lamp, name: 'Lamp', slug: 'lamp', price: 30, sku: 'LMP',
          // Media inside the referenced item is delivered resolved; its own references stay as stored.
          image: { _filename: 'lamp.png', _url: `${h.t.config.baseUrl}/api/v1/media/default/${image.filename}`, _mimeType: 'image/png', _width: 20, _height: 10 },
          category: { _ref: ids.category, _type: 'collectionItem' },
        });
      });

      it('resolves pages, blog posts and users to their minimal metadata', async () => {
        const { data } = await get('/api/v1/pages/home');
        expect(data.fields.related).toEqual({ _type: 'page', id: ids.about, name: 'About', slug: 'about', type: 'article', publishedAt: expect.stringMatching(/Z$/) });
        expect(data.fields.post).toEqual({ _type: 'blogPost', id: ids.post, title: 'Hello world', slug: 'hello-world', publishedAt: '2026-02-01T00:00:00.000Z' });
        expect(data.fields.author).toEqual({ _type: 'user', id: ids.user, name: 'Ada Lovelace' });
        expect(JSON.stringify(data)).not.toContain('ada@example.test');
      });

      it('delivers bare string references unresolved, exactly as stored', async () => {
        const { data } = await get('/api/v1/pages/bare');
        expect(data.fields.product).toBe(ids.lamp);
        expect(data.fields.related).toBe(ids.about);
        const home = await get('/api/v1/pages/home');
        expect(home.data.fields.products.at(-1)).toBe(ids.lamp);
      });

      it('leaves out references to unpublished content on public reads', async () => {
        const home = await get('/api/v1/pages/home');
        // The draft sofa drops out of the list; the chair and the bare id stay.
        expect(home.data.fields.products).toEqual([{ _type: 'products', id: ids.chair, name: 'Chair', slug: 'chair', price: 80 }, ids.lamp]);
        const { data } = await get('/api/v1/pages/to-drafts');
        expect(data.fields.product).toBeNull();
        expect(data.fields.related).toBeNull();
        expect(data.fields.post).toBeNull();
      });

      it('resolves drafts for preview keys', async () => {
        const { data } = await get('/api/v1/pages/to-drafts', { preview: true });
        expect(data.fields.product).toEqual({ _type: 'products', id: ids.sofa, name: 'Sofa', slug: 'sofa', price: 500 });
        expect(data.fields.related).toEqual({ _type: 'page', id: ids.hidden, name: 'Hidden', slug: 'hidden', type: 'article', publishedAt: null });
        expect(data.fields.post).toMatchObject({ _type: 'blogPost', id: ids.draftPost, title: 'Unfinished' });
      });

      it('refTypes=false drops _type on collection items only; components always carry _type', async () => {
        const { data } = await get('/api/v1/pages/home?refTypes=false');
        expect(data.fields.product).not.toHaveProperty('_type');
        expect(data.fields.product).toMatchObject({ id: ids.lamp, name: 'Lamp', price: 30 });
        expect(data.fields.products[0]).toEqual({ id: ids.chair, name: 'Chair', slug: 'chair', price: 80 });
        expect(data.fields.related._type).toBe('page');
        expect(data.fields.author._type).toBe('user');
        expect(data.fields.post._type).toBe('blogPost');
        expect(data.fields.blocks).toEqual([{ _type: 'hero-banner', heading: 'Hi' }, { _type: 'call-to-action', label: 'Buy', href: '/buy' }]);
        expect(data.fields.cta).toEqual({ _type: 'call-to-action', label: 'Go', href: '/go' });
        const withTypes = await get('/api/v1/pages/home?refTypes=true');
        expect(withTypes.data.fields.product._type).toBe('products');
        expect(withTypes.data.fields.cta).toEqual({ _type: 'call-to-action', label: 'Go', href: '/go' });
      });

      it('honours refTypes on lists and collections', async () => {
        const pages = await get('/api/v1/pages?refTypes=false&sort=slug');
        const home = pages.data.find((p: any) => p.slug === 'home');
        expect(home.fields.product).not.toHaveProperty('_type');
        expect(home.fields.blocks[0]._type).toBe('hero-banner');
        const items = await get('/api/v1/collections/products/lamp?refTypes=false');
        // The lamp's own category reference is resolved on its own read.
        expect(items.data.fields.category).toEqual({ id: ids.category, name: 'Lighting', slug: 'lighting', label: 'Lighting', code: 'none' });
        const typed = await get('/api/v1/collections/products?sort=slug');
        expect(typed.data.find((i: any) => i.slug === 'lamp').fields.category._type).toBe('categories');
      });
    });
  }

  it('resolves many references across a list of 20 pages correctly', async () => {
    const products: string[] = [];
    for (let i = 0; i < 10; i++) {
      products.push((await h.createItem('products', { name: `P${i}`, slug: `p-${i}`, status: 'published', fields: { price: i } })).id);
    }
    for (let i = 0; i < 20; i++) {
      await h.createPage({
        pageTypeSlug: 'landing', name: `Many ${i}`, slug: `many-${String(i).padStart(2, '0')}`, status: 'published',
        fields: {
          title: `Many ${i}`,
          product: { _ref: products[i % 10]!, _type: 'collectionItem' },
          products: [0, 1, 2].map((k) => ({ _ref: products[(i + k) % 10]!, _type: 'collectionItem' })),
          related: { _ref: ids.about, _type: 'page' },
          author: { _ref: ids.user, _type: 'user' },
          post: { _ref: ids.post, _type: 'blogPost' },
          hero: { _media: image.id },
        },
      });
    }
    const r = await h.get('/api/v1/pages?pageType=landing&sort=slug&limit=20&fields=title,product,products,related,author,post,hero');
    const body = await r.json();
    const many = body.data.filter((p: any) => p.slug.startsWith('many-'));
    expect(many).toHaveLength(18);
    const rest = await (await h.get('/api/v1/pages?pageType=landing&sort=slug&limit=20&page=2')).json();
    const all = [...many, ...rest.data.filter((p: any) => p.slug.startsWith('many-'))];
    expect(all).toHaveLength(20);
    for (const page of all) {
      const i = Number(page.slug.slice(5));
      expect(page.fields.product).toMatchObject({ _type: 'products', id: products[i % 10], name: `P${i % 10}`, price: i % 10 });
      expect(page.fields.products.map((p: any) => p.name)).toEqual([0, 1, 2].map((k) => `P${(i + k) % 10}`));
      expect(page.fields.related).toMatchObject({ _type: 'page', slug: 'about' });
      expect(page.fields.author).toEqual({ _type: 'user', id: ids.user, name: 'Ada Lovelace' });
      expect(page.fields.post).toMatchObject({ _type: 'blogPost', slug: 'hello-world' });
      expect(page.fields.hero).toMatchObject({ _url: expect.stringContaining(image.filename) });
    }
  });

  describe('createResolver', () => {
    /** The database with every `select` counted: one per query the resolver builds. */
    const counting = (db: Db) => {
      const counter = { selects: 0 };
      const proxy = new Proxy(db, {
        get(target, prop, receiver) {
          if (prop === 'select') return (...args: unknown[]) => { counter.selects++; return (target.select as (...a: unknown[]) => unknown)(...args); };
          return Reflect.get(target, prop, receiver);
        },
      });
      return { db: proxy, counter };
    };
    const options = () => ({ drafts: false, media: 'object' as const, refTypes: true, baseUrl: h.t.config.baseUrl, projectId: h.projectId, projectSlug: 'default' });
    const doc = (n: number) => ({
      item: { _ref: ids.lamp, _type: 'collectionItem' },
      items: Array.from({ length: 3 }, () => ({ _ref: randomUUID(), _type: 'collectionItem' })),
      page: { _ref: n % 2 ? ids.about : randomUUID(), _type: 'page' },
      user: { _ref: ids.user, _type: 'user' },
      post: { _ref: ids.post, _type: 'blogPost' },
      media: [{ _media: image.id }, { _media: randomUUID() }],
      nested: { deep: [{ _ref: ids.chair, _type: 'collectionItem' }] },
    });

    it('costs the same fixed number of queries for 1 document or 100 with 10 references each', async () => {
      const one = counting(h.t.cms.db);
      const small = await createResolver(one.db, [doc(1)], [], options());
      const many = counting(h.t.cms.db);
      const docs = Array.from({ length: 100 }, (_, n) => doc(n));
      const big = await createResolver(many.db, docs, [image.id], options());
      // One query per reference kind (items, pages, blog posts, users), one for all media.
      expect(one.counter.selects).toBe(5);
      expect(many.counter.selects).toBe(5);
      const resolved = big.content(docs[1]!);
      expect(resolved.item).toMatchObject({ _type: 'products', id: ids.lamp, image: { _url: expect.stringContaining(image.filename) } });
      expect(resolved.items).toEqual([]);
      expect(resolved.page).toMatchObject({ _type: 'page', id: ids.about });
      expect(resolved.media).toEqual([expect.objectContaining({ _url: expect.stringContaining(image.filename) }), null]);
      expect(resolved.nested).toEqual({ deep: [expect.objectContaining({ id: ids.chair })] });
      expect(small.content(doc(1)).user).toEqual({ _type: 'user', id: ids.user, name: 'Ada Lovelace' });
    });

    it('asks nothing for content without references or media', async () => {
      const c = counting(h.t.cms.db);
      const resolver = await createResolver(c.db, [{ title: 'x', list: [1, 2, { a: ids.lamp }] }], [], options());
      expect(c.counter.selects).toBe(0);
      expect(resolver.content({ title: 'x' })).toEqual({ title: 'x' });
    });
  });
});
