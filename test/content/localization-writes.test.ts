import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhooks } from '../../src/db/schema/index.js';
import { testDriver } from '../helpers/db.js';
import { contentSchema, createContentHarness, pageWriteKeys, type ContentHarness, type JsonResponse } from './support.js';

/**
 * Writes in a locale (issue 13), over the real HTTP server: the `locale` body member of public and
 * admin writes, publishing every locale at once, requiredInAllLocales, versions, restore, clone,
 * conflict resolution, events and webhook payloads, the blog, and schema changes of `localized`.
 * Locales: en (default), fr, de.
 */

const docFields = [
  { name: 'title', type: 'text', localized: true, required: true },
  { name: 'body', type: 'textarea', localized: true },
  { name: 'code', type: 'text' },
];
const localizedSchema = {
  ...contentSchema,
  pageTypes: [
    ...contentSchema.pageTypes,
    { definition: { slug: 'doc', name: 'Doc', fields: docFields } },
    { definition: { slug: 'strict', name: 'Strict', fields: [{ name: 'title', type: 'text', localized: true, required: true, requiredInAllLocales: true }] } },
  ],
  collections: [...contentSchema.collections, { definition: { slug: 'dishes', name: 'Dishes', fields: [
    { name: 'label', type: 'text', localized: true },
    { name: 'price', type: 'number' },
  ] } }],
};
const password = 'correct horse battery staple';

describe(`writes in a locale (${testDriver})`, () => {
  let h: ContentHarness;
  let cookie: string;

  const ok = async (r: JsonResponse, status = 200) => {
    const body = await r.json();
    expect(r.status, JSON.stringify(body)).toBe(status);
    return body;
  };
  const admin = (method: string, path: string, body?: unknown) => h.http.fetch(path, {
    method, headers: { cookie, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }) as Promise<JsonResponse>;
  const preview = async (path: string) => ok(await h.get(path, { key: null, headers: { 'x-preview-key': h.keys.preview } }));

  beforeAll(async () => {
    h = await createContentHarness();
    await h.t.run('schema.push', localizedSchema);
    await h.t.run('locales.add', { code: 'fr', name: 'Français' });
    await h.t.run('locales.add', { code: 'de', name: 'Deutsch' });
    await h.t.run('users.create', { email: 'ed@example.test', password, role: 'editor' });
    const login = await h.http.fetch('/api/v1/admin/auth/login', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'ed@example.test', password }),
    });
    cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  });
  afterAll(async () => { await h.close(); });
  beforeEach(() => { h.events.length = 0; });

  it('writes a locale\'s values of localized fields and its SEO; shared fields change for every locale; null clears to the fallback', async () => {
    const created = await h.createPage({ pageTypeSlug: 'doc', name: 'About', slug: 'about', fields: { title: 'About us', body: 'We bake', code: 'A1' }, seo: { metaTitle: 'About SEO' } });
    expect(created.draftLocales).toEqual({});
    expect(created.seoLocales).toEqual({});
    expect(created.publishedLocales).toBeNull();
    expect(created.publishedSeoLocales).toBeNull();

    let page = (await ok(await h.write('PUT', '/api/v1/pages/about', {
      locale: 'fr', fields: { title: 'À propos', body: 'Nous faisons du pain' }, seo: { metaTitle: 'À propos SEO' },
    }))).data;
    expect(page.version).toBe(2);
    expect(page.draftContent).toEqual({ title: 'About us', body: 'We bake', code: 'A1' });
    expect(page.draftLocales).toEqual({ fr: { title: 'À propos', body: 'Nous faisons du pain' } });
    expect(page.seo).toEqual({ metaTitle: 'About SEO' });
    expect(page.seoLocales).toEqual({ fr: { metaTitle: 'À propos SEO' } });

    // A shared field written in a locale is the entry's; null clears fr's body (fr falls back to en).
    page = (await ok(await h.write('PUT', '/api/v1/pages/about', { locale: 'fr', fields: { code: 'A2', body: null } }))).data;
    expect(page.draftContent).toEqual({ title: 'About us', body: 'We bake', code: 'A2' });
    expect(page.draftLocales).toEqual({ fr: { title: 'À propos' } });
    const fr = await preview('/api/v1/pages/about?locale=fr');
    expect(fr.data.fields).toEqual({ title: 'À propos', body: 'We bake', code: 'A2' });
    expect(fr.data._fallbacks).toEqual(['body']);
    expect(fr.data.seo.metaTitle).toBe('À propos SEO');

    // Created in a locale: localized values go to it, shared ones (and defaults) to the entry.
    const other = await h.createPage({ pageTypeSlug: 'doc', name: 'Other', slug: 'other', locale: 'de', fields: { title: 'Andere', code: 'O' } });
    expect(other.draftContent).toEqual({ code: 'O' });
    expect(other.draftLocales).toEqual({ de: { title: 'Andere' } });
    // Required fields are required in the default locale: publishing without an English title fails.
    const refused = await ok(await h.write('POST', '/api/v1/pages/other/publish'), 400);
    expect(refused.error.code).toBe('REQUIRED_FIELDS_MISSING');
    expect(refused.error.details.fields).toEqual(['title']);
  });

  it('refuses an unknown locale with 400 VALIDATION_FAILED naming locale, on every write', async () => {
    const attempts: Array<Promise<JsonResponse>> = [
      h.write('POST', '/api/v1/pages', { pageTypeSlug: 'doc', name: 'X', slug: 'x', locale: 'es', fields: { title: 'X' } }),
      h.write('PUT', '/api/v1/pages/about', { locale: 'es', fields: { title: 'X' } }),
      h.write('POST', '/api/v1/collections/dishes', { name: 'X', slug: 'x', locale: 'xx' }),
      admin('POST', '/api/v1/admin/pages', { pageTypeSlug: 'doc', name: 'X', slug: 'x', locale: 'es' }),
      admin('POST', '/api/v1/admin/blog/posts', { title: 'X', locale: 'es' }),
    ];
    for (const attempt of attempts) {
      const body = await ok(await attempt, 400);
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(body.error.details).toEqual([{ path: 'locale', message: expect.stringContaining('unknown locale "') }]);
    }
    expect(h.events).toEqual([]);
  });

  it('publishes every locale at once; draft edits in a locale stay private until the next publish', async () => {
    const published = (await ok(await h.write('POST', '/api/v1/pages/about/publish'))).data;
    expect(published.publishedLocales).toEqual({ fr: { title: 'À propos' } });
    expect(published.publishedSeoLocales).toEqual({ fr: { metaTitle: 'À propos SEO' } });
    const read = async () => ok(await h.get('/api/v1/pages/about?locale=fr'));
    expect((await read()).data.fields.title).toBe('À propos');
    await ok(await h.write('PUT', '/api/v1/pages/about', { locale: 'fr', fields: { title: 'À propos de nous' } }));
    expect((await read()).data.fields.title).toBe('À propos');
    await ok(await h.write('POST', '/api/v1/pages/about/publish'));
    expect((await read()).data.fields.title).toBe('À propos de nous');
    const unpublished = (await ok(await h.write('POST', '/api/v1/pages/about/unpublish'))).data;
    expect(unpublished.publishedLocales).toBeNull();
    expect(unpublished.draftLocales).toEqual({ fr: { title: 'À propos de nous' } });
    expect((await h.get('/api/v1/pages/about?locale=fr')).status).toBe(404);
    await ok(await h.write('POST', '/api/v1/pages/about/publish'));
  });

  it('scheduled publishing publishes every locale too', async () => {
    const page = (await ok(await admin('POST', '/api/v1/admin/pages', { pageTypeSlug: 'doc', name: 'Later', slug: 'later', fields: { title: 'Later' } }), 201)).data;
    await ok(await admin('PUT', `/api/v1/admin/pages/${page.id}`, { locale: 'fr', fields: { title: 'Plus tard' } }));
    await ok(await admin('POST', `/api/v1/admin/pages/${page.id}/schedule`, { publishAt: new Date(Date.now() + 1000).toISOString() }));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const due = await h.t.run('content.publishDue', {});
    expect(due.published.map((d: { slug: string }) => d.slug)).toEqual(['later']);
    expect((await ok(await h.get('/api/v1/pages/later?locale=fr'))).data.fields.title).toBe('Plus tard');
  });

  it('requiredInAllLocales: each locale needs a value to publish; the missing ones are named <code>.<field>', async () => {
    await h.createPage({ pageTypeSlug: 'strict', name: 'Strict', slug: 'strict', fields: { title: 'Strict' } });
    await ok(await h.write('PUT', '/api/v1/pages/strict', { locale: 'fr', fields: { title: 'Strict FR' } }));
    let r = await ok(await h.write('POST', '/api/v1/pages/strict/publish'), 400);
    expect(r.error.code).toBe('REQUIRED_FIELDS_MISSING');
    expect(r.error.details.fields).toEqual(['de.title']);
    r = await ok(await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'strict', name: 'S2', slug: 's2', fields: { title: 'S2' }, status: 'published' }), 400);
    expect(r.error.details.fields).toEqual(['fr.title', 'de.title']);
    await ok(await h.write('PUT', '/api/v1/pages/strict', { locale: 'de', fields: { title: 'Streng' } }));
    await ok(await h.write('POST', '/api/v1/pages/strict/publish'));
    expect((await ok(await h.get('/api/v1/pages/strict?locale=de'))).data.fields.title).toBe('Streng');
    // Without requiredInAllLocales, only the default locale needs the value.
    await h.createPage({ pageTypeSlug: 'doc', name: 'En only', slug: 'en-only', fields: { title: 'English' }, status: 'published' });
  });

  it('version checks work as before: any locale\'s write bumps the version, a stale one is 409', async () => {
    const page = await h.createPage({ pageTypeSlug: 'doc', name: 'Ver', slug: 'ver', fields: { title: 'V' } });
    const r1 = await ok(await h.write('PUT', '/api/v1/pages/ver', { locale: 'fr', fields: { title: 'V fr' } }, { headers: { 'if-match': `"${page.version}"` } }));
    expect(r1.data.version).toBe(2);
    const stale = await ok(await h.write('PUT', '/api/v1/pages/ver', { locale: 'de', fields: { title: 'V de' }, version: 1 }), 409);
    expect(stale.error).toMatchObject({ code: 'VERSION_CONFLICT', details: { currentVersion: 2 } });
  });

  it('collection items: localized values per locale, shared ones for all, published together', async () => {
    const item = await h.createItem('dishes', { name: 'Apple', slug: 'apple', locale: 'fr', fields: { label: 'Pomme', price: 3 } });
    expect(item.draftContent).toEqual({ price: 3 });
    expect(item.draftLocales).toEqual({ fr: { label: 'Pomme' } });
    await ok(await h.write('PUT', '/api/v1/collections/dishes/apple', { fields: { label: 'Apple' } }));
    const pub = (await ok(await h.write('POST', '/api/v1/collections/dishes/apple/publish'))).data;
    expect(pub.publishedLocales).toEqual({ fr: { label: 'Pomme' } });
    expect((await ok(await h.get('/api/v1/collections/dishes/apple?locale=fr'))).data.fields).toEqual({ label: 'Pomme', price: 3 });
    expect((await ok(await h.get('/api/v1/collections/dishes/apple?locale=de'))).data.fields).toEqual({ label: 'Apple', price: 3 });
  });

  it('events carry the locales that changed; webhook payloads have a top-level locales', async () => {
    const [hook] = await h.t.cms.db.insert(webhooks).values({
      projectId: h.projectId, url: 'http://127.0.0.1:9/hook', events: ['page.updated', 'page.published'], secret: 'whsec_test',
    }).returning();
    await ok(await h.write('PUT', '/api/v1/pages/about', { locale: 'fr', fields: { title: 'À propos!' } }));
    await ok(await h.write('PUT', '/api/v1/pages/about', { locale: 'de', seo: { metaTitle: 'Über SEO' } }));
    await ok(await h.write('PUT', '/api/v1/pages/about', { fields: { title: 'About!' } }));
    await ok(await h.write('PUT', '/api/v1/pages/about', { locale: 'fr', fields: { code: 'A3' } }));
    await ok(await h.write('POST', '/api/v1/pages/about/publish'));
    expect(h.events.map((e) => [e.kind, e.locales])).toEqual([
      ['page.updated', ['fr']], ['page.updated', ['de']], ['page.updated', ['en']], ['page.updated', ['en', 'fr', 'de']],
      ['page.published', ['en', 'fr', 'de']],
    ]);
    const payloads = (await h.t.cms.db.select({ payload: webhookDeliveries.payload }).from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, hook!.id)).orderBy(webhookDeliveries.createdAt)).map((d) => JSON.parse(d.payload));
    expect(payloads.map((p) => p.locales)).toEqual([['fr'], ['de'], ['en'], ['en', 'fr', 'de'], ['en', 'fr', 'de']]);
    expect(Object.keys(payloads[0]).sort()).toEqual(['data', 'event', 'locales', 'timestamp']);
    expect(payloads[0].data.draftLocales.fr.title).toBe('À propos!');
    await h.t.cms.db.delete(webhooks).where(eq(webhooks.id, hook!.id));
  });

  it('admin API: list and get show every locale; autosave, restore, clone and conflict resolution carry every locale', async () => {
    const page = (await ok(await admin('POST', '/api/v1/admin/pages', { pageTypeSlug: 'doc', name: 'Adm', slug: 'adm', fields: { title: 'Admin' } }), 201)).data;
    await ok(await admin('PUT', `/api/v1/admin/pages/${page.id}`, { locale: 'fr', fields: { title: 'Admin FR' }, seo: { metaTitle: 'FR' } }));
    await ok(await admin('POST', `/api/v1/admin/pages/${page.id}/publish`));
    const list = await ok(await admin('GET', '/api/v1/admin/pages?pageType=doc'));
    expect(list.data.find((p: any) => p.id === page.id)).toMatchObject({
      draftLocales: { fr: { title: 'Admin FR' } }, publishedLocales: { fr: { title: 'Admin FR' } }, seoLocales: { fr: { metaTitle: 'FR' } },
    });
    // Autosave in a locale: no event.
    h.events.length = 0;
    const saved = (await ok(await admin('POST', `/api/v1/admin/pages/${page.id}/autosave`, { locale: 'fr', fields: { title: 'Brouillon' } }))).data;
    expect(saved.draftLocales.fr.title).toBe('Brouillon');
    expect(h.events).toEqual([]);
    // Restore the published version (3): fr's draft comes back with it.
    const versions = (await ok(await admin('GET', `/api/v1/admin/pages/${page.id}/versions`))).data;
    const restored = (await ok(await admin('POST', `/api/v1/admin/pages/${page.id}/versions/${versions[0].version}/restore`))).data;
    expect(restored.draftLocales).toEqual({ fr: { title: 'Admin FR' } });
    expect(restored.seoLocales).toEqual({ fr: { metaTitle: 'FR' } });
    expect(h.events.at(-1)).toMatchObject({ kind: 'page.updated', locales: ['fr'] });
    // Clone: every locale's draft.
    const clone = (await ok(await admin('POST', `/api/v1/admin/pages/${page.id}/clone`, {}), 201)).data;
    expect(clone.draftLocales).toEqual({ fr: { title: 'Admin FR' } });
    expect(clone.seoLocales).toEqual({ fr: { metaTitle: 'FR' } });
    // Conflict resolution in a locale: merge replaces that locale's document, the others stay.
    await ok(await admin('PUT', `/api/v1/admin/pages/${page.id}`, { locale: 'de', fields: { title: 'Admin DE' } }));
    const resolved = (await ok(await admin('POST', `/api/v1/admin/pages/${page.id}/resolve-conflict`, {
      baseVersion: 1, strategy: 'merge', locale: 'fr', fields: { title: 'Fusion' },
    }))).data;
    expect(resolved.draftLocales).toEqual({ fr: { title: 'Fusion' }, de: { title: 'Admin DE' } });
    expect(resolved.draftContent).toEqual({ title: 'Admin' });
  });

  it('blog posts: title, summary, body and SEO per locale; the admin shape shows every locale', async () => {
    const post = (await ok(await admin('POST', '/api/v1/admin/blog/posts', { title: 'Hello', body: '<p>Hi</p>', status: 'published' }), 201)).data;
    expect(post.locales).toEqual({});
    const updated = (await ok(await admin('PUT', `/api/v1/admin/blog/posts/${post.id}`, {
      locale: 'fr', title: 'Bonjour', summary: 'Résumé', seo: { metaTitle: 'Bonjour SEO' },
    }))).data;
    expect(updated.title).toBe('Hello');
    expect(updated.locales).toEqual({ fr: { title: 'Bonjour', summary: 'Résumé', seo: { metaTitle: 'Bonjour SEO' } } });
    const read = (await ok(await h.get(`/api/v1/blog/posts/${post.slug}?locale=fr`))).data;
    expect(read).toMatchObject({ title: 'Bonjour', summary: 'Résumé', body: '<p>Hi</p>' });
    expect(read.seo.metaTitle).toBe('Bonjour SEO');
    expect(read._fallbacks).toContain('body');
  });

  it('schema push: a field becoming shared drops other locales\' values (the plan counts them), becoming localized keeps the default\'s', async () => {
    await h.createPage({ pageTypeSlug: 'doc', name: 'Sch', slug: 'sch', fields: { title: 'T', body: 'B', code: 'C' } });
    await ok(await h.write('PUT', '/api/v1/pages/sch', { locale: 'fr', fields: { title: 'T fr', body: 'B fr' } }));
    await ok(await h.write('POST', '/api/v1/pages/sch/publish'));
    const changed = {
      ...localizedSchema,
      pageTypes: localizedSchema.pageTypes.map((p) => (p.definition.slug === 'doc' ? { definition: { ...p.definition, fields: [
        { name: 'title', type: 'text', localized: true, required: true },
        { name: 'body', type: 'textarea' },
        { name: 'code', type: 'text', localized: true },
      ] } } : p)),
    };
    const withFr = (await h.t.run('pages.list', { query: { pageType: 'doc' } })).data
      .filter((p: any) => p.draftLocales.fr?.body !== undefined || p.publishedLocales?.fr?.body !== undefined).length;
    const plan = await h.t.run('schema.diff', changed);
    expect(plan.localization).toEqual([
      { kind: 'pageTypes', slug: 'doc', field: 'body', direction: 'shared', entriesLosingValues: withFr },
      { kind: 'pageTypes', slug: 'doc', field: 'code', direction: 'localized', entriesLosingValues: 0 },
    ]);
    expect(withFr).toBeGreaterThan(0);
    await h.t.run('schema.push', changed);
    const page = (await ok(await admin('GET', '/api/v1/admin/pages?pageType=doc'))).data.find((p: any) => p.slug === 'sch');
    expect(page.draftLocales).toEqual({ fr: { title: 'T fr' } });
    expect(page.publishedLocales).toEqual({ fr: { title: 'T fr' } });
    expect(page.draftContent).toEqual({ title: 'T', body: 'B', code: 'C' });
    const fr = (await ok(await h.get('/api/v1/pages/sch?locale=fr'))).data;
    expect(fr.fields).toEqual({ title: 'T fr', body: 'B', code: 'C' });
    expect(fr._fallbacks).toEqual(['code']);
    // A plan without such a change has no localization part.
    expect((await h.t.run('schema.diff', changed)).localization).toBeUndefined();
  });

  it('restores a version taken under another default locale, laid out for the current default', async () => {
    const page = (await ok(await admin('POST', '/api/v1/admin/pages', { pageTypeSlug: 'doc', name: 'Rb', slug: 'rb', fields: { title: 'EN' } }), 201)).data;
    await ok(await admin('PUT', `/api/v1/admin/pages/${page.id}`, { locale: 'fr', fields: { title: 'FR' } }));
    const published = (await ok(await admin('POST', `/api/v1/admin/pages/${page.id}/publish`))).data;
    await h.t.run('locales.setDefault', { code: 'fr' });
    const moved = (await ok(await admin('PUT', `/api/v1/admin/pages/${page.id}`, { locale: 'en', fields: { title: 'EN 2' } }))).data;
    expect(moved.draftContent).toMatchObject({ title: 'FR' });
    expect(moved.draftLocales).toEqual({ en: { title: 'EN 2' } });
    const restored = (await ok(await admin('POST', `/api/v1/admin/pages/${page.id}/versions/${published.version}/restore`))).data;
    expect(restored.draftContent).toMatchObject({ title: 'FR' });
    expect(restored.draftLocales).toEqual({ en: { title: 'EN' } });
    expect(h.events.at(-1)).toMatchObject({ kind: 'page.updated', locales: ['en'] });
  });
});

describe(`writes in a one-locale project are as before (${testDriver})`, () => {
  let h: ContentHarness;
  beforeAll(async () => { h = await createContentHarness(); });
  afterAll(async () => { await h.close(); });

  it('answers and payloads carry no locale members; locale: "en" is the default, another code is 400', async () => {
    const [hook] = await h.t.cms.db.insert(webhooks).values({
      projectId: h.projectId, url: 'http://127.0.0.1:9/hook', events: ['page.created'], secret: 'whsec_test',
    }).returning();
    const page = await h.createPage({ name: 'One', slug: 'one', locale: 'en', fields: { title: 'T' } });
    expect(Object.keys(page).sort()).toEqual([...pageWriteKeys, 'pageTypeSlug', 'publishAt', 'unpublishAt'].sort());
    expect(h.events[0]).toEqual({ projectId: h.projectId, kind: 'page.created', data: page });
    const [delivery] = await h.t.cms.db.select({ payload: webhookDeliveries.payload }).from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook!.id));
    expect(Object.keys(JSON.parse(delivery!.payload))).toEqual(['event', 'timestamp', 'data']);
    const r = await h.write('PUT', '/api/v1/pages/one', { locale: 'fr', fields: { title: 'X' } });
    expect(r.status).toBe(400);
    expect((await r.json()).error.details).toEqual([{ path: 'locale', message: 'unknown locale "fr"; this project has en' }]);
  });
});
