import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPosts, collectionItems, pages } from '../../src/db/schema/index.js';
import { testDriver } from '../helpers/db.js';
import { contentSchema, createContentHarness, doorNames, type ContentHarness } from './support.js';

/**
 * `?locale=` on the public and preview reads of pages, collections and the blog (issue 13), over
 * the real HTTP server: fallback chains, `_fallbacks`, `locale=*`, unknown locales, field
 * selection, filters and sorts in a locale, references in a locale, drafts in a locale, and the
 * response cache per locale. Locales: en (default), fr, fr-CA (falls back to fr, then en).
 */

type Values = Record<string, Record<string, unknown>>;

/** The localized schema: a page type and a collection with localized and shared fields. */
const localizedSchema = {
  ...contentSchema,
  pageTypes: [...contentSchema.pageTypes, { definition: { slug: 'doc', name: 'Doc', fields: [
    { name: 'title', type: 'text', localized: true, required: true },
    { name: 'body', type: 'textarea', localized: true },
    { name: 'code', type: 'text' },
    { name: 'dish', type: 'reference', options: { collectionType: 'dishes' } },
    { name: 'picture', type: 'image', localized: true },
  ] } }],
  collections: [...contentSchema.collections, { definition: { slug: 'dishes', name: 'Dishes', fields: [
    { name: 'label', type: 'text', localized: true },
    { name: 'price', type: 'number' },
  ] } }],
};

describe(`reads in a locale (${testDriver})`, () => {
  let h: ContentHarness;

  /**
   * Other locales' values, set beside what the write API wrote in the default locale (the write
   * side's `locale` body member is another change): published and draft alike unless told.
   */
  const setPageLocales = (slug: string, v: { values?: Values; draft?: Values; seo?: Values }) =>
    h.t.cms.db.update(pages).set({
      ...(v.values ? { publishedLocales: v.values, draftLocales: v.draft ?? v.values } : {}),
      ...(v.seo ? { publishedSeoLocales: v.seo, seoLocales: v.seo } : {}),
    }).where(eq(pages.slug, slug));
  const setItemLocales = (slug: string, values: Values) =>
    h.t.cms.db.update(collectionItems).set({ publishedLocales: values, draftLocales: values }).where(eq(collectionItems.slug, slug));

  /** A public read, or a preview read with `preview`. */
  const read = async (path: string, preview?: 'preview') => {
    const r = await h.get(path, preview ? { key: null, headers: { 'x-preview-key': h.keys.preview } } : {});
    const body = await r.json();
    expect(r.status, `${path}: ${JSON.stringify(body)}`).toBe(200);
    return body;
  };

  let picture: { id: string; filename: string };
  let picture2: { id: string; filename: string };

  beforeAll(async () => {
    h = await createContentHarness();
    await h.t.run('schema.push', localizedSchema);
    await h.t.run('locales.add', { code: 'fr', name: 'Français' });
    await h.t.run('locales.add', { code: 'fr-CA', name: 'Français (Canada)', fallback: 'fr' });
    picture = await h.insertMedia({ altText: 'en picture' });
    picture2 = await h.insertMedia({ altText: 'fr picture' });

    const dish = async (slug: string, label: string, price: number, values: Values) => {
      await h.createItem('dishes', { name: slug, slug, status: 'published', fields: { label, price } });
      await setItemLocales(slug, values);
    };
    await dish('apple', 'Apple', 3, { fr: { label: 'Pomme' } });
    await dish('banana', 'Banana', 1, { fr: { label: 'Banane' }, 'fr-CA': { label: 'Zbanane' } });
    await dish('cherry', 'Cherry', 2, {});
    const apple = (await read('/api/v1/collections/dishes/apple')).data;

    await h.createPage({
      pageTypeSlug: 'doc', name: 'Home', slug: 'home', status: 'published',
      fields: { title: 'Home', body: 'Welcome', code: 'H1', dish: { _ref: apple.id, _type: 'collectionItem' }, picture: { _media: picture.id } },
      seo: { metaTitle: 'Home SEO', metaDescription: 'Desc', ogImageId: picture.id },
    });
    await setPageLocales('home', {
      values: { fr: { title: 'Accueil', picture: { _media: picture2.id } }, 'fr-CA': { body: 'Bienvenue' } },
      seo: { fr: { metaTitle: 'Accueil SEO', ogImageId: picture2.id }, 'fr-CA': {} },
    });
    // A page whose French draft differs from what is published.
    await h.createPage({ pageTypeSlug: 'doc', name: 'Draft', slug: 'drafted', status: 'published', fields: { title: 'Drafted' } });
    await setPageLocales('drafted', { values: { fr: { title: 'Publié' } }, draft: { fr: { title: 'Brouillon' } } });
    // Never published: only previews see it, in any locale.
    await h.createPage({ pageTypeSlug: 'doc', name: 'Unpublished', slug: 'unpublished', fields: { title: 'Soon' } });
    await setPageLocales('unpublished', { values: {}, draft: { fr: { title: 'Bientôt' } } });
  });
  afterAll(async () => { await h.close(); });

  describe('pages', () => {
    it('resolves each localized field along the chain and names the fallbacks, SEO member by member', async () => {
      const caFr = await read('/api/v1/pages/home?locale=fr-CA');
      expect(Object.keys(caFr)).toEqual(['data', 'redirect', 'locale']);
      expect(caFr.locale).toBe('fr-CA');
      expect(caFr.redirect).toBeNull();
      expect(caFr.data.fields).toMatchObject({ title: 'Accueil', body: 'Bienvenue', code: 'H1' });
      expect(caFr.data.seo).toMatchObject({ metaTitle: 'Accueil SEO', metaDescription: 'Desc', ogImage: { _url: expect.stringContaining(picture2.filename) } });
      expect(caFr.data._fallbacks).toEqual(['title', 'picture', 'seo.metaTitle', 'seo.metaDescription', 'seo.ogImage']);

      const fr = await read('/api/v1/pages/home?locale=fr');
      expect(fr.data.fields).toMatchObject({ title: 'Accueil', body: 'Welcome', code: 'H1', picture: { _url: expect.stringContaining(picture2.filename), _altText: 'fr picture' } });
      expect(fr.data._fallbacks).toEqual(['body', 'seo.metaDescription']);

      const en = await read('/api/v1/pages/home?locale=en');
      expect(en.locale).toBe('en');
      expect(en.data.fields).toMatchObject({ title: 'Home', body: 'Welcome', picture: { _url: expect.stringContaining(picture.filename) } });
      expect(en.data.seo).toMatchObject({ metaTitle: 'Home SEO', ogImage: { _url: expect.stringContaining(picture.filename) } });
      expect(en.data._fallbacks).toEqual([]);
    });

    it('without locale answers the default locale exactly as before: no locale, no _fallbacks', async () => {
      const plain = await read('/api/v1/pages/home');
      expect(Object.keys(plain)).toEqual(['data', 'redirect']);
      expect(plain.data).not.toHaveProperty('_fallbacks');
      const en = await read('/api/v1/pages/home?locale=en');
      const { _fallbacks, ...rest } = en.data;
      expect(rest).toEqual(plain.data);
      expect(Object.keys(en.data)).toEqual([...Object.keys(plain.data), '_fallbacks']);
      // A localized field stored as null stays null in a locale, and is no fallback.
      await h.createPage({ pageTypeSlug: 'doc', name: 'Nulls', slug: 'nulls', status: 'published', fields: { title: 'N', body: null } });
      const nulls = await read('/api/v1/pages/nulls');
      expect(nulls.data.fields).toHaveProperty('body', null);
      const nullsFr = await read('/api/v1/pages/nulls?locale=fr');
      expect(nullsFr.data.fields).toEqual(nulls.data.fields);
      expect(nullsFr.data._fallbacks).toEqual(['title']);
      const list = await read('/api/v1/pages?pageType=doc');
      expect(Object.keys(list)).toEqual(['data', 'pagination']);
      expect(list.data[0]).not.toHaveProperty('_fallbacks');
    });

    it('locale=* gives every locale\'s value of each localized field and SEO member', async () => {
      const all = await read('/api/v1/pages/home?locale=*');
      expect(all.locale).toBe('*');
      expect(all.data.fields.title).toEqual({ en: 'Home', fr: 'Accueil', 'fr-CA': null });
      expect(all.data.fields.body).toEqual({ en: 'Welcome', fr: null, 'fr-CA': 'Bienvenue' });
      expect(all.data.fields.picture).toEqual({ en: expect.objectContaining({ _url: expect.stringContaining(picture.filename) }), fr: expect.objectContaining({ _url: expect.stringContaining(picture2.filename) }), 'fr-CA': null });
      expect(all.data.fields.code).toBe('H1');
      expect(all.data.seo.metaTitle).toEqual({ en: 'Home SEO', fr: 'Accueil SEO', 'fr-CA': null });
      expect(all.data.seo.metaRobots).toEqual({ en: null, fr: null, 'fr-CA': null });
      expect(all.data.seo.ogImage).toEqual({ en: expect.objectContaining({ _url: expect.stringContaining(picture.filename) }), fr: expect.objectContaining({ _url: expect.stringContaining(picture2.filename) }), 'fr-CA': null });
      expect(all.data._fallbacks).toEqual([]);
      const urls = await read('/api/v1/pages/home?locale=*&media=url');
      expect(urls.data.seo.ogImage.fr).toBe(`${h.t.config.baseUrl}/api/v1/media/default/${picture2.filename}`);
    });

    it('applies fields= to the resolved values and names only the selected fields\' fallbacks', async () => {
      const title = await read('/api/v1/pages/home?locale=fr-CA&fields=title');
      expect(title.data.fields).toEqual({ title: 'Accueil' });
      expect(title.data._fallbacks).toEqual(['title', 'seo.metaTitle', 'seo.metaDescription', 'seo.ogImage']);
      const body = await read('/api/v1/pages/home?locale=fr-CA&fields=body,code');
      expect(body.data.fields).toEqual({ body: 'Bienvenue', code: 'H1' });
      expect(body.data._fallbacks).toEqual(['seo.metaTitle', 'seo.metaDescription', 'seo.ogImage']);
      const excluded = await read('/api/v1/pages/home?locale=fr&fields=-body');
      expect(excluded.data.fields).not.toHaveProperty('body');
      expect(excluded.data._fallbacks).toEqual(['seo.metaDescription']);
      const every = await read('/api/v1/pages/home?locale=*&fields=title');
      expect(every.data.fields).toEqual({ title: { en: 'Home', fr: 'Accueil', 'fr-CA': null } });
    });

    it('lists pages in a locale with { data, pagination, locale }', async () => {
      const list = await read('/api/v1/pages?pageType=doc&locale=fr&sort=name');
      expect(Object.keys(list)).toEqual(['data', 'pagination', 'locale']);
      expect(list.locale).toBe('fr');
      expect(list.data.map((p: any) => [p.slug, p.fields.title, p._fallbacks])).toEqual([
        ['drafted', 'Publié', []],
        ['home', 'Accueil', ['body', 'seo.metaDescription']],
        ['nulls', 'N', ['title']],
      ]);
      // Pages of a type without localized fields read the same in every locale.
      await h.createPage({ name: 'Landing', slug: 'landing-fr', status: 'published', fields: { title: 'Landing' } });
      const landing = await read('/api/v1/pages?pageType=landing&locale=fr');
      expect(landing.data[0].fields.title).toBe('Landing');
      expect(landing.data[0]._fallbacks).toEqual([]);
    });

    it('resolves referenced collection items in the same locale', async () => {
      expect((await read('/api/v1/pages/home?locale=fr')).data.fields.dish).toMatchObject({ slug: 'apple', label: 'Pomme', price: 3 });
      expect((await read('/api/v1/pages/home?locale=fr-CA')).data.fields.dish).toMatchObject({ label: 'Pomme' });
      expect((await read('/api/v1/pages/home')).data.fields.dish).toMatchObject({ label: 'Apple' });
      expect((await read('/api/v1/pages/home?locale=*')).data.fields.dish).toMatchObject({ label: { en: 'Apple', fr: 'Pomme', 'fr-CA': null }, price: 3 });
      const list = await read('/api/v1/pages?pageType=doc&locale=fr');
      expect(list.data.find((p: any) => p.slug === 'home').fields.dish.label).toBe('Pomme');
    });

    it('previews read the drafts of the locale', async () => {
      expect((await read('/api/v1/pages/drafted?locale=fr')).data.fields.title).toBe('Publié');
      expect((await read('/api/v1/pages/drafted?locale=fr', 'preview')).data.fields.title).toBe('Brouillon');
      expect((await read('/api/v1/pages/drafted?locale=fr-CA', 'preview')).data).toMatchObject({ fields: { title: 'Brouillon' }, _fallbacks: ['title'] });
      expect((await read('/api/v1/pages/unpublished?locale=fr', 'preview')).data.fields.title).toBe('Bientôt');
      expect((await h.get('/api/v1/pages/unpublished?locale=fr')).status).toBe(404);
      const list = await read('/api/v1/pages?pageType=doc&locale=fr&sort=name', 'preview');
      expect(list.data.map((p: any) => p.fields.title)).toEqual(['Brouillon', 'Accueil', 'N', 'Bientôt']);
    });
  });

  describe('collections', () => {
    it('reads items in a locale, single and listed', async () => {
      const one = await read('/api/v1/collections/dishes/banana?locale=fr-CA');
      expect(one).toMatchObject({ locale: 'fr-CA', redirect: null, data: { fields: { label: 'Zbanane', price: 1 }, _fallbacks: [] } });
      const cherry = await read('/api/v1/collections/dishes/cherry?locale=fr');
      expect(cherry.data).toMatchObject({ fields: { label: 'Cherry' }, _fallbacks: ['label'] });
      expect(cherry.data).not.toHaveProperty('seo');
      const list = await read('/api/v1/collections/dishes?locale=fr&sort=fields.price');
      expect(Object.keys(list)).toEqual(['data', 'pagination', 'locale']);
      expect(list.data.map((d: any) => [d.fields.label, d._fallbacks])).toEqual([['Banane', []], ['Cherry', ['label']], ['Pomme', []]]);
      const every = await read('/api/v1/collections/dishes?locale=*&sort=fields.price');
      expect(every.data[0].fields).toEqual({ label: { en: 'Banana', fr: 'Banane', 'fr-CA': 'Zbanane' }, price: 1 });
    });

    it('sorts by a localized field with the locale\'s values', async () => {
      const labels = async (q: string) => (await read(`/api/v1/collections/dishes?${q}`)).data.map((d: any) => d.fields.label);
      expect(await labels('sort=fields.label')).toEqual(['Apple', 'Banana', 'Cherry']);
      expect(await labels('sort=fields.label&locale=fr')).toEqual(['Banane', 'Cherry', 'Pomme']);
      expect(await labels('sort=-fields.label&locale=fr')).toEqual(['Pomme', 'Cherry', 'Banane']);
      expect(await labels('sort=fields.label&locale=fr-CA')).toEqual(['Cherry', 'Pomme', 'Zbanane']);
      // `*` sorts by the default locale's values.
      expect((await read('/api/v1/collections/dishes?sort=fields.label&locale=*')).data.map((d: any) => d.fields.label.en)).toEqual(['Apple', 'Banana', 'Cherry']);
    });

    it('filters on a localized field with the locale\'s values, each locale with its own total', async () => {
      const page = async (q: string) => {
        const body = await read(`/api/v1/collections/dishes?sort=fields.price&${q}`);
        return { labels: body.data.map((d: any) => (typeof d.fields.label === 'string' ? d.fields.label : d.fields.label.en)), total: body.pagination.total };
      };
      expect(await page('filter[fields.label]=Pomme')).toEqual({ labels: [], total: 0 });
      expect(await page('filter[fields.label]=Pomme&locale=fr')).toEqual({ labels: ['Pomme'], total: 1 });
      expect(await page('filter[fields.label]=Pomme&locale=fr-CA')).toEqual({ labels: ['Pomme'], total: 1 });
      expect(await page('filter[fields.label]=Banane&locale=fr-CA')).toEqual({ labels: [], total: 0 });
      // A full first page needs the total counted: each locale counts its own.
      expect(await page('filter[fields.label][contains]=e&limit=1')).toEqual({ labels: ['Cherry'], total: 2 });
      expect(await page('filter[fields.label][contains]=e&limit=1&locale=fr')).toEqual({ labels: ['Banane'], total: 3 });
      expect(await page('filter[fields.label][contains]=e&limit=1&locale=fr-CA')).toEqual({ labels: ['Zbanane'], total: 3 });
      expect(await page('filter[fields.label][contains]=e&limit=1&locale=*')).toEqual({ labels: ['Cherry'], total: 2 });
      expect(await page('filter[fields.price][gte]=2&locale=fr')).toEqual({ labels: ['Cherry', 'Pomme'], total: 2 });
    });
  });

  describe('blog', () => {
    beforeAll(async () => {
      const hello = await h.insertBlogPost({ title: 'Hello', slug: 'hello' });
      await h.t.cms.db.update(blogPosts).set({
        summary: 'Sum', body: '<p>hi</p>', seo: { metaTitle: 'Hello SEO', ogImageId: picture.id },
        locales: { fr: { title: 'Bonjour', seo: { metaTitle: 'Bonjour SEO' } } },
      }).where(eq(blogPosts.id, hello.id));
      const zebra = await h.insertBlogPost({ title: 'Zebra', slug: 'zebra' });
      await h.t.cms.db.update(blogPosts).set({ locales: { fr: { title: 'Alpaga', summary: 'Résumé', seo: { ogImageId: picture2.id } } } })
        .where(eq(blogPosts.id, zebra.id));
    });

    it('reads a post in a locale: title, summary, body along the chain, SEO member by member', async () => {
      const fr = await read('/api/v1/blog/posts/hello?locale=fr');
      expect(Object.keys(fr)).toEqual(['data', 'locale']);
      expect(fr.locale).toBe('fr');
      expect(fr.data).toMatchObject({ title: 'Bonjour', summary: 'Sum', body: '<p>hi</p>', seo: { metaTitle: 'Bonjour SEO', ogImage: { _url: expect.stringContaining(picture.filename) } } });
      expect(fr.data._fallbacks).toEqual(['summary', 'body', 'seo.ogImage']);
      const ca = await read('/api/v1/blog/posts/hello?locale=fr-CA');
      expect(ca.data).toMatchObject({ title: 'Bonjour', seo: { metaTitle: 'Bonjour SEO' } });
      expect(ca.data._fallbacks).toEqual(['title', 'summary', 'body', 'seo.metaTitle', 'seo.ogImage']);
      const selected = await read('/api/v1/blog/posts/hello?locale=fr-CA&fields=summary');
      expect(selected.data).not.toHaveProperty('body');
      expect(selected.data._fallbacks).toEqual(['title', 'summary', 'seo.metaTitle', 'seo.ogImage']);
      const plain = await read('/api/v1/blog/posts/hello');
      expect(Object.keys(plain)).toEqual(['data']);
      expect(plain.data).not.toHaveProperty('_fallbacks');
      expect(plain.data.title).toBe('Hello');
      const zebra = await read('/api/v1/blog/posts/zebra?locale=fr&media=url');
      expect(zebra.data.seo.ogImage).toBe(`${h.t.config.baseUrl}/api/v1/media/default/${picture2.filename}`);
    });

    it('locale=* gives every locale\'s title, summary, body and SEO members', async () => {
      const all = await read('/api/v1/blog/posts/hello?locale=*');
      expect(all.data.title).toEqual({ en: 'Hello', fr: 'Bonjour', 'fr-CA': null });
      expect(all.data.summary).toEqual({ en: 'Sum', fr: null, 'fr-CA': null });
      expect(all.data.seo.metaTitle).toEqual({ en: 'Hello SEO', fr: 'Bonjour SEO', 'fr-CA': null });
      expect(all.data.seo.ogImage).toEqual({ en: expect.objectContaining({ _url: expect.stringContaining(picture.filename) }), fr: null, 'fr-CA': null });
      expect(all.data._fallbacks).toEqual([]);
    });

    it('lists posts in a locale, sorted by the locale\'s titles', async () => {
      const titles = async (q: string) => (await read(`/api/v1/blog/posts?${q}`)).data.map((p: any) => p.title);
      expect(await titles('sort=title')).toEqual(['Hello', 'Zebra']);
      expect(await titles('sort=title&locale=fr')).toEqual(['Alpaga', 'Bonjour']);
      expect(await titles('sort=-title&locale=fr-CA')).toEqual(['Bonjour', 'Alpaga']);
      const list = await read('/api/v1/blog/posts?locale=fr&sort=title');
      expect(Object.keys(list)).toEqual(['data', 'pagination', 'locale']);
      // Zebra has a French title, summary and SEO image; its body is the default's.
      expect(list.data.map((p: any) => [p.slug, p._fallbacks])).toEqual([['zebra', ['body']], ['hello', ['summary', 'body', 'seo.ogImage']]]);
    });

    it('categories, tags and authors take a locale, check it and answer it, nothing else', async () => {
      await h.t.run('blog.categories.create', { name: 'News' });
      for (const kind of ['categories', 'tags', 'authors']) {
        const plain = await read(`/api/v1/blog/${kind}`);
        const fr = await read(`/api/v1/blog/${kind}?locale=fr`);
        expect(Object.keys(fr), kind).toEqual(['data', 'pagination', 'locale']);
        expect(fr.locale).toBe('fr');
        expect(fr.data).toEqual(plain.data);
        expect(Object.keys(plain)).toEqual(['data', 'pagination']);
        expect((await read(`/api/v1/blog/${kind}?locale=*`)).locale).toBe('*');
      }
    });
  });

  it('refuses an unknown locale with 400 INVALID_QUERY on every public read', async () => {
    for (const path of [
      '/api/v1/pages', '/api/v1/pages/home', '/api/v1/collections/dishes', '/api/v1/collections/dishes/apple',
      '/api/v1/blog/posts', '/api/v1/blog/posts/hello', '/api/v1/blog/categories', '/api/v1/blog/tags', '/api/v1/blog/authors',
    ]) {
      for (const locale of ['de', 'FR', '', 'fr-ca']) {
        for (const preview of [false, true]) {
          const r = await h.get(`${path}?locale=${encodeURIComponent(locale)}`, preview ? { key: null, headers: { 'x-preview-key': h.keys.preview } } : {});
          const body = await r.json();
          expect(r.status, `${path} ${locale}`).toBe(400);
          expect(body.error.code).toBe('INVALID_QUERY');
          expect(body.error.message).toContain('locale');
        }
      }
    }
  });

  describe('cache', () => {
    for (const door of doorNames) {
      it(`keeps each locale's answer apart and a write invalidates them (${door})`, async () => {
        const slug = `cached-${door.replace('.', '-')}`;
        await h.createPage({ pageTypeSlug: 'doc', name: slug, slug, status: 'published', fields: { title: 'Cached' } });
        await setPageLocales(slug, { values: { fr: { title: 'En cache' } } });
        const title = async (q: string) => {
          const r = await h.get(`/api/v1/pages/${slug}${q}`, { door });
          expect(r.status).toBe(200);
          return (await r.json()).data.fields.title;
        };
        const listed = async (q: string) => {
          const r = await h.get(`/api/v1/pages?pageType=doc&sort=-createdAt&limit=1${q}`, { door });
          return (await r.json()).data[0].fields.title;
        };
        expect(await title('')).toBe('Cached');
        expect(await title('?locale=fr')).toBe('En cache');
        expect(await title('?locale=fr-CA')).toBe('En cache');
        expect(await listed('&locale=fr')).toBe('En cache');
        // Behind the engine's back: the answers stay as cached, each locale its own.
        await setPageLocales(slug, { values: { fr: { title: 'Modifié' } } });
        expect(await title('?locale=fr')).toBe('En cache');
        expect(await title('?locale=fr-CA')).toBe('En cache');
        expect(await listed('&locale=fr')).toBe('En cache');
        expect(await title('')).toBe('Cached');
        // A publish (a write through the API) invalidates every locale's answer.
        const published = await h.write('POST', `/api/v1/pages/${slug}/publish`, undefined, { door });
        expect(published.status).toBe(200);
        expect(await title('?locale=fr')).toBe('Modifié');
        expect(await title('?locale=fr-CA')).toBe('Modifié');
        expect(await listed('&locale=fr')).toBe('Modifié');
        expect(await title('')).toBe('Cached');
        // A change of locales (fr-CA no longer falls back to fr) invalidates as well.
        await h.t.run('locales.update', { code: 'fr-CA', fallback: null });
        expect(await title('?locale=fr-CA')).toBe('Cached');
        await h.t.run('locales.update', { code: 'fr-CA', fallback: 'fr' });
        expect(await title('?locale=fr-CA')).toBe('Modifié');
      });
    }
  });
});

describe(`a project with one locale (${testDriver})`, () => {
  let h: ContentHarness;
  beforeAll(async () => {
    h = await createContentHarness();
    await h.createPage({ name: 'One', slug: 'one', status: 'published', fields: { title: 'One' }, seo: { metaTitle: 'One SEO' } });
    await h.createItem('products', { name: 'Widget', slug: 'widget', status: 'published', fields: { price: 1 } });
  });
  afterAll(async () => { await h.close(); });

  it('answers without locale as always, and with locale=en the same data plus locale and empty _fallbacks', async () => {
    for (const [path, single] of [['/api/v1/pages/one', true], ['/api/v1/pages', false], ['/api/v1/collections/products/widget', true], ['/api/v1/collections/products', false]] as const) {
      const plain = await (await h.get(path)).json();
      expect(Object.keys(plain), path).toEqual(single ? ['data', 'redirect'] : ['data', 'pagination']);
      const en = await (await h.get(`${path}?locale=en`)).json();
      expect(en.locale).toBe('en');
      const strip = (d: any) => { const { _fallbacks, ...rest } = d; expect(_fallbacks).toEqual([]); return rest; };
      expect(single ? strip(en.data) : en.data.map(strip)).toEqual(plain.data);
      const all = await (await h.get(`${path}?locale=*`)).json();
      expect(all.locale).toBe('*');
      // Nothing is localized in this schema: `*` shows the same fields; SEO is always per locale.
      const fieldsOf = (d: any) => (single ? [d.fields] : d.map((e: any) => e.fields));
      expect(fieldsOf(all.data)).toEqual(fieldsOf(plain.data));
      if (path.startsWith('/api/v1/pages')) {
        const seo = single ? all.data.seo : all.data[0].seo;
        expect(seo.metaTitle).toEqual({ en: 'One SEO' });
        expect(seo.ogImage).toEqual({ en: null });
      }
    }
    const fr = await h.get('/api/v1/pages/one?locale=fr');
    expect(fr.status).toBe(400);
    expect((await fr.json()).error).toMatchObject({ code: 'INVALID_QUERY' });
  });
});
