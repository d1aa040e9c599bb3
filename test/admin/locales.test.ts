import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogPosts, pages } from '../../src/db/schema/index.js';
import { runCliInProcess } from '../helpers/cli.js';
import { createTestDatabase } from '../helpers/db.js';
import { createAdminHarness, type AdminHarness } from './support.js';

describe('locales over the admin API', () => {
  let h: AdminHarness;
  let admin: string;
  let editor: string;
  const base = '/api/v1/admin/locales';

  beforeAll(async () => {
    h = await createAdminHarness();
    admin = await h.signIn((await h.createUser('admin')).email);
    editor = await h.signIn((await h.createUser('editor')).email);
  });
  afterAll(() => h.close());

  const codes = async () => ((await (await h.call('GET', base, { cookie: editor })).json()).data as Array<{ code: string }>).map((l) => l.code);

  it('starts with English alone, the default; every member reads them', async () => {
    const res = await h.call('GET', base, { cookie: editor });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual([{ code: 'en', name: 'English', fallback: null, default: true }]);
  });

  it('adds locales (admin only), named after the language unless named, with a fallback that exists', async () => {
    const refused = await h.call('POST', base, { cookie: editor, body: { code: 'fr' } });
    expect(refused.status).toBe(403);
    const fr = await h.call('POST', base, { cookie: admin, body: { code: 'fr' } });
    expect(fr.status).toBe(201);
    expect((await fr.json()).data).toContainEqual({ code: 'fr', name: 'French', fallback: null, default: false });
    const ca = await h.call('POST', base, { cookie: admin, body: { code: 'fr-CA', name: 'Français (Canada)', fallback: 'fr' } });
    expect(ca.status).toBe(201);
    expect((await ca.json()).data).toContainEqual({ code: 'fr-CA', name: 'Français (Canada)', fallback: 'fr', default: false });
    expect(await codes()).toEqual(['en', 'fr', 'fr-CA']);
    // Any language and region English has names for is named so; an unknown language by its code.
    for (const [code, name] of [['de-DE', 'German (Germany)'], ['es-419', 'Spanish (Latin America)'], ['zh-Hant-TW', 'Chinese (Traditional, Taiwan)'], ['qaa', 'qaa']]) {
      const added = await h.call('POST', base, { cookie: admin, body: { code } });
      expect(added.status, code).toBe(201);
      expect((await added.json()).data, code).toContainEqual({ code, name, fallback: null, default: false });
      expect((await h.call('DELETE', `${base}/${code}`, { cookie: admin, body: {} })).status, code).toBe(200);
    }
  });

  it('refuses a taken code, a malformed code, an unknown fallback and a fallback circle, changing nothing', async () => {
    const taken = await h.call('POST', base, { cookie: admin, body: { code: 'fr' } });
    expect(taken.status).toBe(409);
    expect((await taken.json()).error.code).toBe('CONFLICT');
    const malformed = await h.call('POST', base, { cookie: admin, body: { code: 'French!' } });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'code' }] });
    const unknown = await h.call('POST', base, { cookie: admin, body: { code: 'de', fallback: 'nl' } });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.details).toEqual([{ path: 'fallback', message: expect.stringContaining('"nl"') }]);
    const circle = await h.call('PUT', `${base}/fr`, { cookie: admin, body: { fallback: 'fr-CA' } });
    expect(circle.status).toBe(400);
    expect((await circle.json()).error.message).toContain('circle');
    const self = await h.call('PUT', `${base}/fr`, { cookie: admin, body: { fallback: 'fr' } });
    expect(self.status).toBe(400);
    expect(await codes()).toEqual(['en', 'fr', 'fr-CA']);
  });

  it('renames a locale and changes its fallback; an unknown locale is 404', async () => {
    const res = await h.call('PUT', `${base}/fr-CA`, { cookie: admin, body: { name: 'Canadian French', fallback: null } });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toContainEqual({ code: 'fr-CA', name: 'Canadian French', fallback: null, default: false });
    await h.call('PUT', `${base}/fr-CA`, { cookie: admin, body: { fallback: 'fr' } });
    expect((await h.call('PUT', `${base}/xx`, { cookie: admin, body: { name: 'X' } })).status).toBe(404);
  });

  it('makes another locale the default, swapping every entry\'s values, and refuses to remove the default', async () => {
    const db = h.t.cms.db;
    await h.t.run('types.create', { kind: 'pageTypes', definition: { slug: 'article', name: 'Article', fields: [
      { name: 'title', type: 'text', localized: true }, { name: 'count', type: 'number' },
    ] } });
    const page = await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Hello', slug: 'hello', fields: { title: 'Hello', count: 1 }, seo: { metaTitle: 'EN' }, status: 'published' });
    await db.update(pages).set({
      draftLocales: { fr: { title: 'Bonjour' } }, publishedLocales: { fr: { title: 'Bonjour' } },
      seoLocales: { fr: { metaTitle: 'FR' } }, publishedSeoLocales: { fr: { metaTitle: 'FR' } },
    }).where(eq(pages.id, page.id));
    const post = await h.t.run('blog.posts.create', { title: 'Hello post', body: '<p>Hi</p>' });
    await db.update(blogPosts).set({ locales: { fr: { title: 'Bonjour billet', body: '<p>Salut</p>' } } }).where(eq(blogPosts.id, post.id));

    const res = await h.call('POST', `${base}/fr/default`, { cookie: admin });
    expect(res.status).toBe(200);
    expect((await res.json()).data.find((l: { default: boolean }) => l.default).code).toBe('fr');
    const [row] = await db.select().from(pages).where(eq(pages.id, page.id));
    expect(row).toMatchObject({
      draftContent: { title: 'Bonjour', count: 1 }, draftLocales: { en: { title: 'Hello' } },
      publishedContent: { title: 'Bonjour', count: 1 }, publishedLocales: { en: { title: 'Hello' } },
      seo: { metaTitle: 'FR' }, seoLocales: { en: { metaTitle: 'EN' } },
      publishedSeo: { metaTitle: 'FR' }, publishedSeoLocales: { en: { metaTitle: 'EN' } },
    });
    const [postRow] = await db.select().from(blogPosts).where(eq(blogPosts.id, post.id));
    expect(postRow).toMatchObject({ title: 'Bonjour billet', body: '<p>Salut</p>', summary: '' });
    expect(postRow!.locales).toMatchObject({ en: { title: 'Hello post', body: '<p>Hi</p>' } });

    const refused = await h.call('DELETE', `${base}/fr`, { cookie: admin });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.message).toContain('default locale');

    // Removing a locale removes what was written in it, and whoever fell back to it falls back further.
    await h.call('PUT', `${base}/fr-CA`, { cookie: admin, body: { fallback: 'en' } });
    const removed = await h.call('DELETE', `${base}/en`, { cookie: admin });
    expect(removed.status).toBe(200);
    expect((await removed.json()).data).toEqual([
      { code: 'fr', name: 'French', fallback: null, default: true },
      { code: 'fr-CA', name: 'Canadian French', fallback: null, default: false },
    ]);
    const [after] = await db.select().from(pages).where(eq(pages.id, page.id));
    expect(after).toMatchObject({ draftLocales: {}, publishedLocales: {}, seoLocales: {}, publishedSeoLocales: {}, draftContent: { title: 'Bonjour', count: 1 } });
  });
});

describe('cms locales and cms init --locales', () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const cli = (...args: string[]) => runCliInProcess(args, { cwd: dir, env: { ...(database.url ? { DATABASE_URL: database.url } : {}) } });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-locales-cli-'));
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a malformed --locales as a usage error and writes nothing', async () => {
    const r = await cli('init', 'bad', '--yes', '--locales', 'en,Fr_fr');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"Fr_fr" is not a locale code');
  });

  it('starts a project in the languages given, the first the default, and manages them', async () => {
    const init = await cli('init', '.', '--yes', '--locales', 'de,en', '--json');
    expect(init.code, init.stderr).toBe(0);
    const list = await cli('locales', 'list', '--json');
    expect(list.json().data).toEqual([
      { code: 'en', name: 'English', fallback: null, default: false },
      { code: 'de', name: 'German', fallback: null, default: true },
    ]);
    const added = await cli('locales', 'add', 'de-AT', '--name', 'Österreichisch', '--fallback', 'de');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('Added locale de-AT');
    expect(added.stdout).toMatch(/de-AT\s+Österreichisch\s+de/);
    const updated = await cli('locales', 'update', 'de-AT', '--fallback', 'none', '--json');
    expect(updated.json().data).toContainEqual({ code: 'de-AT', name: 'Österreichisch', fallback: null, default: false });
    const refused = await cli('locales', 'remove', 'de');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('CONFLICT');
    expect((await cli('locales', 'set-default', 'en')).code).toBe(0);
    expect((await cli('locales', 'remove', 'de')).code).toBe(0);
    const final = await cli('locales', 'list', '--json');
    expect(final.json().data.map((l: { code: string }) => l.code)).toEqual(['en', 'de-AT']);
  });
});
