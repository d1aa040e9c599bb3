import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../src/db/schema/index.js';
import { createContentHarness, doorNames, itemReadKeys, pageReadKeys, sortedKeys, type ContentHarness } from './support.js';

/** `fields` selection and `media=object|url`, on single and list reads of pages and items. */
describe('field selection and media', () => {
  let h: ContentHarness;
  let full: { id: string; filename: string };
  let bare: { id: string; filename: string };
  let plain: { id: string; filename: string };
  const fileUrl = (filename: string) => `${h.t.config.baseUrl}/api/v1/media/default/${filename}`;

  beforeAll(async () => {
    h = await createContentHarness();
    full = await h.insertMedia({ width: 1200, height: 800, altText: 'A harbour at dusk', originalFilename: 'harbour.jpg', mimeType: 'image/jpeg' });
    bare = await h.insertMedia({ width: null, height: null, altText: null, originalFilename: 'notes.pdf', mimeType: 'application/pdf' });
    // An empty alt text is "no value" too.
    plain = await h.insertMedia({ width: 10, height: null, altText: '', originalFilename: 'tiny.png' });
    await h.createPage({
      name: 'Home', slug: 'home', status: 'published',
      fields: {
        title: 'Home', summary: 'All about us', priority: 1,
        hero: { _media: full.id },
        gallery: { first: { _media: bare.id }, list: [{ _media: plain.id }, 'not media'], asText: bare.id },
        blocks: [{ _type: 'hero-banner', heading: 'Big', image: { _media: full.id } }, { _type: 'hero-banner', heading: 'Bare', image: plain.id }],
      },
      seo: { ogImageId: full.id },
    });
    // A bare media UUID and the { id } form are delivered exactly as stored.
    await h.createPage({ name: 'Bare', slug: 'bare', status: 'published', fields: { title: 'Bare', hero: full.id } });
    await h.createPage({ name: 'Object id', slug: 'object-id', status: 'published', fields: { title: 'Obj', hero: { id: full.id } } });
    await h.createItem('products', { name: 'Lamp', slug: 'lamp', status: 'published', fields: { price: 5, sku: 'L', image: { _media: full.id } } });
  });
  afterAll(async () => { await h.close(); });

  for (const door of doorNames) {
    describe(door, () => {
      const get = async (path: string) => {
        const r = await h.get(path, { door });
        expect(r.status, path).toBe(200);
        return r.json();
      };

      it('includes only the named fields; the other members are always returned', async () => {
        const body = await get('/api/v1/pages/home?fields=title,priority');
        expect(sortedKeys(body.data)).toEqual(pageReadKeys);
        expect(body.data.fields).toEqual({ title: 'Home', priority: 1 });
        expect(body.data).toMatchObject({ name: 'Home', slug: 'home', type: 'landing' });
        expect(body.data.seo.ogImage).toMatchObject({ _filename: 'harbour.jpg' });
      });

      it('excludes names with -', async () => {
        const body = await get('/api/v1/pages/home?fields=-hero,-gallery,-blocks');
        expect(body.data.fields).toEqual({ title: 'Home', summary: 'All about us', priority: 1, tagline: 'Welcome' });
      });

      it('lets includes win over exclusions', async () => {
        const body = await get('/api/v1/pages/home?fields=-title,summary,-summary');
        expect(body.data.fields).toEqual({ summary: 'All about us' });
      });

      it('ignores unknown names; an include list of unknown names gives an empty fields object', async () => {
        expect((await get('/api/v1/pages/home?fields=title,nope')).data.fields).toEqual({ title: 'Home' });
        expect((await get('/api/v1/pages/home?fields=nope')).data.fields).toEqual({});
        const excluded = await get('/api/v1/pages/home?fields=-nope');
        expect(Object.keys(excluded.data.fields).sort()).toEqual(['blocks', 'gallery', 'hero', 'priority', 'summary', 'tagline', 'title']);
        // Members outside `fields` are not selectable: they are always there.
        const members = await get('/api/v1/pages/home?fields=id,name');
        expect(members.data.fields).toEqual({});
        expect(sortedKeys(members.data)).toEqual(pageReadKeys);
      });

      it('returns every field for an empty parameter', async () => {
        for (const q of ['fields=', 'fields=,', 'fields=%20']) {
          const body = await get(`/api/v1/pages/home?${q}`);
          expect(Object.keys(body.data.fields).sort(), q).toEqual(['blocks', 'gallery', 'hero', 'priority', 'summary', 'tagline', 'title']);
        }
      });

      it('applies the selection on lists and on collections', async () => {
        const pages = await get('/api/v1/pages?fields=title&sort=slug');
        expect(pages.data.map((p: any) => p.fields)).toEqual([{ title: 'Bare' }, { title: 'Home' }, { title: 'Obj' }]);
        const items = await get('/api/v1/collections/products?fields=-image,-sku');
        expect(items.data[0].fields).toEqual({ price: 5 });
        expect(sortedKeys(items.data[0])).toEqual(itemReadKeys);
        const one = await get('/api/v1/collections/products/lamp?fields=sku');
        expect(one.data.fields).toEqual({ sku: 'L' });
      });

      it('resolves { _media } into the media object; unset width, height and alt text are absent', async () => {
        const body = await get('/api/v1/pages/home');
        expect(body.data.fields.hero).toEqual({
          _filename: 'harbour.jpg', _url: fileUrl(full.filename), _mimeType: 'image/jpeg', _width: 1200, _height: 800, _altText: 'A harbour at dusk',
        });
        const first = body.data.fields.gallery.first;
        expect(first).toEqual({ _filename: 'notes.pdf', _url: fileUrl(bare.filename), _mimeType: 'application/pdf' });
        for (const k of ['_width', '_height', '_altText']) expect(Object.hasOwn(first, k), k).toBe(false);
        const [listed, text] = body.data.fields.gallery.list;
        expect(listed).toEqual({ _filename: 'tiny.png', _url: fileUrl(plain.filename), _mimeType: 'image/png', _width: 10 });
        expect(Object.hasOwn(listed, '_height')).toBe(false);
        expect(Object.hasOwn(listed, '_altText')).toBe(false);
        expect(text).toBe('not media');
      });

      it('delivers bare media UUID strings (and the { id } form) exactly as stored', async () => {
        expect((await get('/api/v1/pages/bare')).data.fields.hero).toBe(full.id);
        expect((await get('/api/v1/pages/object-id')).data.fields.hero).toEqual({ id: full.id });
        expect((await get('/api/v1/pages/home')).data.fields.gallery.asText).toBe(bare.id);
        expect((await get('/api/v1/pages/home')).data.fields.blocks[1].image).toBe(plain.id);
      });

      it('resolves media inside components and collection items', async () => {
        const body = await get('/api/v1/pages/home');
        expect(body.data.fields.blocks[0]).toEqual({ _type: 'hero-banner', heading: 'Big', image: expect.objectContaining({ _url: fileUrl(full.filename) }) });
        const item = await get('/api/v1/collections/products/lamp');
        expect(item.data.fields.image).toMatchObject({ _filename: 'harbour.jpg', _width: 1200 });
      });

      it('media=url turns every delivered media object into its URL string, bare strings unchanged', async () => {
        const body = await get('/api/v1/pages/home?media=url');
        expect(body.data.fields.hero).toBe(fileUrl(full.filename));
        expect(body.data.fields.gallery.first).toBe(fileUrl(bare.filename));
        expect(body.data.fields.gallery.list).toEqual([fileUrl(plain.filename), 'not media']);
        expect(body.data.fields.gallery.asText).toBe(bare.id);
        expect(body.data.fields.blocks[0].image).toBe(fileUrl(full.filename));
        expect(body.data.seo.ogImage).toBe(fileUrl(full.filename));
        expect((await get('/api/v1/pages/bare?media=url')).data.fields.hero).toBe(full.id);
        const list = await get('/api/v1/collections/products?media=url');
        expect(list.data[0].fields.image).toBe(fileUrl(full.filename));
        const pages = await get('/api/v1/pages?media=url&sort=slug');
        expect(pages.data[1].fields.hero).toBe(fileUrl(full.filename));
      });

      it('treats any other media value as object', async () => {
        for (const mode of ['object', 'URL', 'urls', '', 'nonsense']) {
          const body = await get(`/api/v1/pages/home?media=${mode}`);
          expect(body.data.fields.hero, mode).toMatchObject({ _filename: 'harbour.jpg' });
        }
      });

      it('caches each media mode separately', async () => {
        const a = await get('/api/v1/pages/home?media=url');
        const b = await get('/api/v1/pages/home?media=object');
        const c = await get('/api/v1/pages/home?media=url');
        expect(typeof a.data.fields.hero).toBe('string');
        expect(typeof b.data.fields.hero).toBe('object');
        expect(c).toEqual(a);
      });
    });
  }

  it('delivers a { _media } of deleted or unknown media as null', async () => {
    const gone = await h.insertMedia();
    await h.createPage({ name: 'Gone', slug: 'gone', status: 'published', fields: { title: 'Gone', hero: { _media: gone.id }, gallery: [{ _media: '00000000-0000-4000-8000-000000000000' }] } });
    await h.t.cms.db.update(media).set({ deletedAt: new Date() }).where(eq(media.id, gone.id));
    const body = await (await h.get('/api/v1/pages/gone')).json();
    expect(body.data.fields.hero).toBeNull();
    expect(body.data.fields.gallery).toEqual([null]);
  });
});
