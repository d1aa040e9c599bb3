import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages, pageVersions } from '../../src/db/schema/index.js';
import type { Cms } from '../../src/runtime.js';
import { createMigrationRunner } from '../../src/importers/runner.js';
import { fakeImportConfig, PEOPLE_FIRST_ID, type FakeLocales } from '../fakes/buttercms/account.js';
import { startFakeButter, type FakeButter } from '../fakes/buttercms/server.js';
import { createTestCms, type TestCms } from '../helpers/engine.js';
import { runCli, startCliServer } from '../helpers/cli.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';
import { serveOverSocket, type HttpClient } from '../helpers/http.js';

/**
 * An import in several locales (issue 13: `--locales en,fr`), through the admin API over a real
 * socket, against the fake ButterCMS answering `locale=`; the result read through the public API
 * with `?locale=`.
 */

/** French values of a few entries; everything else is the same in both locales. */
const french: FakeLocales = {
  codes: ['en', 'fr'],
  values: {
    fr: {
      pages: {
        'spring-launch': {
          headline: 'Découvrez la nouvelle fusée Acme',
          intro: '<p>Plus rapide que <strong>jamais</strong>.</p>',
          seo: { title: 'Lancement de printemps | Acme', description: 'Toutes les nouveautés du printemps.' },
        },
        // Product pages point at each other (a cycle: created first, completed in a second pass);
        // in French this one points at another page.
        'rocket-skates': { tagline: 'Les seuls patins-fusées dont vous aurez besoin', related_pages: [{ $ref: 'page', slug: 'jet-pack' }] },
      },
      items: { [PEOPLE_FIRST_ID]: { role: 'Ingénieur' } },
    },
  },
};

const password = 'correct horse battery staple';
/** Answers whose JSON the tests read freely. */
const json = (r: Response): Promise<any> => r.json();
const base = '/api/v1/admin/migrations';

interface Harness {
  t: TestCms;
  http: HttpClient;
  cookie: string;
  publicKey: string;
  close(): Promise<void>;
}

/** An engine whose runner does not space requests, served on a socket, with a developer signed in and a public key. */
async function createHarness(minIntervalMs = 0): Promise<Harness> {
  let cms: Cms | undefined;
  const runner = createMigrationRunner(() => cms!, { minIntervalMs });
  const t = await createTestCms({ services: { migrationRunner: runner }, config: { rateLimit: null } });
  cms = t.cms;
  const http = await serveOverSocket(t.cms);
  await t.run('users.create', { email: 'dev@example.test', password, role: 'developer' });
  const res = await http.fetch('/api/v1/admin/auth/login', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'dev@example.test', password }),
  });
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const publicKey: string = (await t.run('keys.create', { type: 'public' })).key;
  return { t, http, cookie, publicKey, close: async () => { await http.close?.(); await t.close(); } };
}

describe(`ButterCMS import in several locales (${testDriver})`, () => {
  let h: Harness;
  let butter: FakeButter;

  const admin = async (method: string, path: string, body?: unknown) => {
    const r = await h.http.fetch(path, {
      method, headers: { cookie: h.cookie, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: r.status, body: await json(r) };
  };
  const read = async (path: string) => {
    const r = await h.http.fetch(path, { headers: { 'x-api-key': h.publicKey } });
    const body = await json(r);
    expect(r.status, `${path}: ${JSON.stringify(body)}`).toBe(200);
    return body;
  };
  /** Creates, starts and follows a migration through the admin API to its end. */
  const migrate = async (mode: string, extra: Record<string, unknown>, source: FakeButter = butter) => {
    const config = { apiKey: source.token, apiUrl: source.url, pageTypes: [...fakeImportConfig.pageTypes], collections: [...fakeImportConfig.collections], ...extra };
    const created = await admin('POST', base, { sourcePlatform: 'buttercms', mode, config });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id: string = created.body.data.id;
    expect((await admin('POST', `${base}/${id}/start`)).status).toBe(202);
    for (let i = 0; i < 6000; i += 1) {
      const { body } = await admin('GET', `${base}/${id}`);
      if (['completed', 'failed', 'paused'].includes(body.data.status)) return body.data;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the migration never ended');
  };
  const logText = async (id: string) => {
    const lines: Array<{ message: string }> = (await admin('GET', `${base}/${id}/logs?limit=1000`)).body.data;
    return lines.map((l) => l.message).join('\n');
  };
  const locales = async (): Promise<Array<{ code: string; default: boolean; name: string }>> => h.t.run('locales.list', {});

  beforeAll(async () => {
    h = await createHarness();
    butter = await startFakeButter();
    butter.account.locales = french;
  });
  afterAll(async () => {
    await butter?.close();
    await h?.close();
  });

  it('a locale the account does not have fails the migration with the source\'s answer, nothing written', async () => {
    const before = butter.requests.length;
    const m = await migrate('full', { locales: ['en', 'de'] });
    expect(m.status).toBe('failed');
    expect(m.error).toMatch(/^ButterCMS answered 400 \("locale: Invalid locale "de": this account has no such locale\."\) on GET .*locale=de.*: the account has no locale "de" \(list its locale API slugs/);
    expect(m.error).toMatch(/Nothing was written\.$/);
    expect(m.error).not.toContain(butter.token);
    // The English reads all went through; the first French one was refused.
    const sent = butter.requests.slice(before).filter((r) => r.path.startsWith('/v2/'));
    expect(sent.filter((r) => r.query.locale === 'de')).toHaveLength(1);
    expect(sent.filter((r) => r.query.locale === 'en').length).toBeGreaterThan(5);
    expect([m.stats.pages, m.stats.collectionItems, m.stats.media, m.stats.pageTypes]).toEqual([undefined, undefined, undefined, undefined]);
    expect(await locales()).toEqual([{ code: 'en', name: 'English', fallback: null, default: true }]);
    const schema = await h.t.run('schema.pull', {});
    expect(schema.pageTypes).toEqual([]);
    // The first listed locale refused: the same, on the first request.
    const first = await migrate('dry_run', { locales: ['xx'] });
    expect(first.error).toMatch(/the account has no locale "xx"/);
  });

  it('bad lists are refused on create (400), before anything runs', async () => {
    for (const [value, message] of [[[], /at least one locale/], [['en', 'en'], /en\\"? is listed twice/], [['EN_us'], /not a locale code/]] as const) {
      const r = await admin('POST', base, { sourcePlatform: 'buttercms', mode: 'dry_run', config: { apiKey: 'k', locales: value } });
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body.error)).toMatch(message);
    }
  });

  it('a dry run reports the locales, where each goes and the localized fields, and writes nothing', async () => {
    const m = await migrate('dry_run', { locales: ['en', 'fr'] });
    expect(m.status, m.error).toBe('completed');
    expect(m.report.locales).toEqual({
      read: ['en', 'fr'], defaultLocale: 'en', add: ['fr'], contentFrom: 'en', storedUnderOwnCode: ['fr'],
      localizedFields: { 'pageTypes/landing-page': ['seo', 'headline', 'intro'], 'pageTypes/product-page': ['tagline', 'related_pages'], 'collections/people': ['role'] },
    });
    expect(await locales()).toHaveLength(1);
  });

  let fullId = '';
  let englishReads = 0;
  it('full: the first locale read as the default, fr read with locale=fr into the same entries; fr added to the project', async () => {
    const before = butter.requests.length;
    const m = await migrate('full', { locales: ['en', 'fr'] });
    expect(m.status, m.error).toBe('completed');
    fullId = m.id;
    expect(await locales()).toEqual([
      { code: 'en', name: 'English', fallback: null, default: true },
      { code: 'fr', name: 'French', fallback: null, default: false },
    ]);
    const text = await logText(m.id);
    expect(text).toContain('Added the locale fr (French) to the project');
    expect(text).toContain('Locales read: en, fr (the first as the source\'s default); localized fields: page type landing-page: seo, headline, intro; page type product-page: tagline, related_pages; collection people: role');
    expect(text).toMatch(/The blog is read once, without a locale/);

    // Requests: pages and collections once in en, then again in fr; the blog and the files without a locale.
    const sent = butter.requests.slice(before);
    const api = sent.filter((r) => r.path.startsWith('/v2/'));
    const content = api.filter((r) => r.path.startsWith('/v2/pages/') || r.path.startsWith('/v2/content/'));
    expect(content.every((r) => r.query.locale === 'en' || r.query.locale === 'fr')).toBe(true);
    const en = content.filter((r) => r.query.locale === 'en').map((r) => `${r.path}?page=${r.query.page}`);
    const fr = content.filter((r) => r.query.locale === 'fr').map((r) => `${r.path}?page=${r.query.page}`);
    expect(new Set(fr)).toEqual(new Set(en));
    englishReads = en.length;
    expect(content.findIndex((r) => r.query.locale === 'fr')).toBeGreaterThan(content.findLastIndex((r) => r.query.locale === 'en'));
    expect(api.filter((r) => !content.includes(r)).every((r) => r.query.locale === undefined)).toBe(true);
    expect(sent.filter((r) => r.path.startsWith('/media/')).every((r) => r.query.locale === undefined)).toBe(true);
    expect(m.stats.sourceRequests).toBe(sent.length);

    // The schema: fields whose values differ are localized, the rest shared.
    const schema = await h.t.run('schema.pull', {});
    const landing = schema.pageTypes.find((t: { slug: string }) => t.slug === 'landing-page');
    const flags = Object.fromEntries(landing.fields.map((f: { name: string; localized?: boolean }) => [f.name, f.localized === true]));
    expect(flags).toMatchObject({ headline: true, intro: true, seo: true, price: false, hero_image: false, body: false, theme: false });
    const people = schema.collections.find((t: { slug: string }) => t.slug === 'people');
    expect(people.fields.filter((f: { localized?: boolean }) => f.localized).map((f: { name: string }) => f.name)).toEqual(['role']);
  });

  it('the public API reads the same entries in French with ?locale=fr, and without a locale exactly as before', async () => {
    const plain = await read('/api/v1/pages/spring-launch');
    expect(plain.locale).toBeUndefined();
    expect(plain.data.fields.headline).toBe('Meet the new Acme Rocket');
    expect(plain.data.seo).toMatchObject({ metaTitle: 'Spring Launch | Acme' });

    const fr = await read('/api/v1/pages/spring-launch?locale=fr');
    expect(fr.locale).toBe('fr');
    expect(fr.data.id).toBe(plain.data.id);
    expect(fr.data.fields).toMatchObject({
      headline: 'Découvrez la nouvelle fusée Acme',
      intro: '<p>Plus rapide que <strong>jamais</strong>.</p>',
      price: 199.99,
      theme: 'dark',
    });
    expect(fr.data.fields.seo).toMatchObject({ title: 'Lancement de printemps | Acme' });
    expect(fr.data.seo).toMatchObject({ metaTitle: 'Lancement de printemps | Acme', metaDescription: 'Toutes les nouveautés du printemps.' });
    expect(fr.data._fallbacks).toEqual([]);
    // Shared values (references, media, components) are the same entry's in both.
    expect(fr.data.fields.hero_image).toEqual(plain.data.fields.hero_image);
    expect(fr.data.fields.body).toEqual(plain.data.fields.body);

    // An entry ButterCMS had the same values for in fr: its own French values, no fallback.
    const summer = await read('/api/v1/pages/summer-sale?locale=fr');
    expect(summer.data.fields.headline).toBe('Up to 40% off');
    expect(summer.data._fallbacks).toEqual([]);

    const coyote = await read('/api/v1/collections/people/wile-e-coyote');
    expect(coyote.data.fields.role).toBe('Engineer');
    const coyoteFr = await read('/api/v1/collections/people/wile-e-coyote?locale=fr');
    expect(coyoteFr.data.id).toBe(coyote.data.id);
    expect(coyoteFr.data.fields).toMatchObject({ name: 'Wile E. Coyote', role: 'Ingénieur' });
    const all = await read('/api/v1/collections/people/wile-e-coyote?locale=*');
    expect(all.data.fields.role).toEqual({ en: 'Engineer', fr: 'Ingénieur' });

    // A page completed in the second pass (a reference cycle) has its French values, references included.
    const skates = await read('/api/v1/pages/rocket-skates');
    const skatesFr = await read('/api/v1/pages/rocket-skates?locale=fr');
    expect(skates.data.fields.related_pages.map((r: { slug: string }) => r.slug)).toEqual(['giant-magnet', 'acme-anvil']);
    expect(skatesFr.data.fields.related_pages.map((r: { slug: string }) => r.slug)).toEqual(['jet-pack']);
    expect(skatesFr.data.fields.tagline).toBe('Les seuls patins-fusées dont vous aurez besoin');
    expect(skates.data.fields.tagline).toBe('The only rocket skates you will ever need');

    // The entry's newest version holds the other locales too.
    const [version] = await h.t.cms.db.select({ snapshot: pageVersions.snapshot }).from(pageVersions)
      .innerJoin(pages, eq(pages.id, pageVersions.pageId)).where(eq(pages.id, plain.data.id)).orderBy(desc(pageVersions.version)).limit(1);
    expect(version!.snapshot.publishedLocales?.fr).toMatchObject({ headline: 'Découvrez la nouvelle fusée Acme' });
    expect(version!.snapshot.seoLocales?.fr).toMatchObject({ metaTitle: 'Lancement de printemps | Acme' });

    // Lists in a locale, filtered by the locale's values.
    const list = await read('/api/v1/collections/people?locale=fr&filter[fields.role]=Ingénieur');
    expect(list.data.map((i: { slug: string }) => i.slug)).toEqual(['wile-e-coyote']);
  });

  it('a project with content keeps its default: listed first or not, the default\'s values are the entries\' own', async () => {
    // en is the project's default and has content now; fr listed first.
    const m = await migrate('full', { locales: ['fr', 'en'] });
    expect(m.status, m.error).toBe('completed');
    expect((await locales()).find((l) => l.default)?.code).toBe('en');
    expect(await logText(m.id)).toContain('The entries\' own content (the default locale en) comes from en; fr stored under its own code');
    const plain = await read('/api/v1/pages/spring-launch-2');
    expect(plain.data.fields.headline).toBe('Meet the new Acme Rocket');
    const fr = await read('/api/v1/pages/spring-launch-2?locale=fr');
    expect(fr.data.fields.headline).toBe('Découvrez la nouvelle fusée Acme');
    expect(fullId).not.toBe(m.id);
  });

  it('a project whose default is not listed: the first listed locale\'s values are its content and its own locale\'s (a warning says so)', async () => {
    const m = await migrate('full', { locales: ['fr'] });
    expect(m.status, m.error).toBe('completed');
    expect((await locales()).map((l) => [l.code, l.default])).toEqual([['en', true], ['fr', false]]);
    const logs: Array<{ message: string }> = (await admin('GET', `${base}/${m.id}/logs?level=warning&limit=1000`)).body.data;
    expect(logs.map((l) => l.message)).toContain('The project\'s default locale en is not among the locales read: its values are fr\'s until written');
    const plain = await read('/api/v1/pages/spring-launch-3');
    expect(plain.data.fields.headline).toBe('Découvrez la nouvelle fusée Acme');
    // headline is localized in the project already (the first import): fr gets its own value.
    const fr = await read('/api/v1/pages/spring-launch-3?locale=fr');
    expect(fr.data.fields.headline).toBe('Découvrez la nouvelle fusée Acme');
    expect(fr.data._fallbacks).toEqual([]);
  });

  it('a source failure while reading the second locale fails the migration before anything is written', async () => {
    const failing = await startFakeButter({ mode: 'fail-midway', failAfterRequests: englishReads + 2 });
    failing.account.locales = french;
    try {
      const pagesBefore = (await read('/api/v1/pages?limit=1')).pagination.total;
      const m = await migrate('full', { locales: ['en', 'fr'] }, failing);
      expect(m.status).toBe('failed');
      expect(m.error).toMatch(/^ButterCMS answered 500 \("Server error"\) on GET http:\/\/127\.0\.0\.1:\d+\/v2\/\S+locale=fr\S*; migrations do not retry/);
      expect(m.progress.phase).toBe('mappingLocales');
      const sent = failing.requests.filter((r) => r.path.startsWith('/v2/'));
      expect(sent.filter((r) => r.query.locale === 'fr')).toHaveLength(3);
      expect([m.stats.pages, m.stats.collectionItems, m.stats.media, m.stats.pageTypes]).toEqual([undefined, undefined, undefined, undefined]);
      expect((await read('/api/v1/pages?limit=1')).pagination.total).toBe(pagesBefore);
    } finally {
      await failing.close();
    }
  });

  it('without locales the import sends exactly the requests it always sent (no locale parameter)', async () => {
    const before = butter.requests.length;
    const m = await migrate('dry_run', {});
    expect(m.status).toBe('completed');
    expect(m.report.locales).toBeUndefined();
    expect(butter.requests.slice(before).every((r) => r.query.locale === undefined)).toBe(true);
  });
});

describe(`ButterCMS import in several locales into a new project (${testDriver})`, () => {
  let h: Harness;
  let butter: FakeButter;

  const spacingMs = 30;
  beforeAll(async () => {
    h = await createHarness(spacingMs);
    butter = await startFakeButter();
    butter.account.locales = { codes: ['fr', 'en'], values: {} };
  });
  afterAll(async () => {
    await butter?.close();
    await h?.close();
  });

  it('an empty project with only en takes the first listed locale as its default, in the schema step', async () => {
    const created = await h.t.run('migrations.create', {
      sourcePlatform: 'buttercms', mode: 'schema_only',
      config: { apiKey: butter.token, apiUrl: butter.url, pageTypes: [...fakeImportConfig.pageTypes], collections: [...fakeImportConfig.collections], locales: 'fr,en' },
    });
    await h.t.run('migrations.start', { id: created.id });
    let m: any;
    for (let i = 0; i < 3000; i += 1) {
      m = await h.t.run('migrations.get', { id: created.id });
      if (['completed', 'failed'].includes(m.status)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(m.status, m.error).toBe('completed');
    expect(m.config.locales).toEqual(['fr', 'en']);
    expect(await h.t.run('locales.list', {})).toEqual([
      { code: 'en', name: 'English', fallback: null, default: false },
      { code: 'fr', name: 'French', fallback: null, default: true },
    ]);
    const logs: Array<{ message: string }> = await h.t.run('migrations.logs', { id: created.id, limit: 1000 });
    expect(logs.map((l) => l.message)).toContain('Made fr the project\'s default locale (it had only en and no content)');

    // The extra reads keep the spacing between requests, as the source sees them.
    const at = butter.requests.map((r) => r.at);
    expect(butter.requests.filter((r) => r.query.locale === 'en').length).toBeGreaterThan(3);
    for (let i = 1; i < at.length; i += 1) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(spacingMs);
  });
});

/** `cms migrate run --locales en,fr` as CI runs it: the built CLI (`npm run build` first), with `cms serve` in the same folder. */
describe(`cms migrate run --locales (child process, ${testDriver})`, () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let butter: FakeButter;
  const env = (): NodeJS.ProcessEnv => ({ DATABASE_URL: database.url, BUTTERCMS_API_KEY: undefined });
  const cli = (args: string[]) => runCli(args, { cwd: dir, env: env(), timeoutMs: 600_000 });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-migrate-locales-'));
    database = await createTestDatabase();
    butter = await startFakeButter();
    butter.account.locales = french;
  });
  afterAll(async () => {
    await butter?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports both locales, and the served public API answers ?locale=fr with the French values', async () => {
    const server = await startCliServer([], { cwd: dir, env: env() });
    try {
      const r = await cli(['migrate', 'run', '--from', 'buttercms', '--api-url', butter.url, '--api-key', butter.token,
        '--page-types', fakeImportConfig.pageTypes.join(','), '--collections', fakeImportConfig.collections.join(','),
        '--locales', 'en,fr', '--mode', 'full', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const { data } = r.json();
      expect(data).toMatchObject({ status: 'completed', config: { locales: ['en', 'fr'] } });
      expect(butter.requests.filter((q) => q.query.locale === 'fr').length).toBeGreaterThan(5);

      const listed = await cli(['locales', 'list', '--json']);
      expect(listed.json().data.map((l: { code: string; default: boolean }) => [l.code, l.default])).toEqual([['en', true], ['fr', false]]);

      const key: string = (await cli(['keys', 'create', '--type', 'public', '--json'])).json().data.key;
      const get = async (path: string) => {
        const res = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': key } });
        expect(res.status).toBe(200);
        const body: { locale?: string; data: { fields: Record<string, unknown> } } = await json(res);
        return body;
      };
      expect((await get('/api/v1/pages/spring-launch')).data.fields.headline).toBe('Meet the new Acme Rocket');
      const fr = await get('/api/v1/pages/spring-launch?locale=fr');
      expect(fr.locale).toBe('fr');
      expect(fr.data.fields.headline).toBe('Découvrez la nouvelle fusée Acme');
      expect((await get('/api/v1/collections/people/wile-e-coyote?locale=fr')).data.fields.role).toBe('Ingénieur');

      // A locale the account lacks: exit code 1, the source's answer in the error.
      const bad = await cli(['migrate', 'run', '--from', 'buttercms', '--api-url', butter.url, '--api-key', butter.token,
        '--locales', 'en,de', '--mode', 'dry_run', '--json']);
      expect(bad.code).toBe(1);
      expect(bad.json().data.error).toMatch(/the account has no locale "de"/);
    } finally {
      await server.stop();
    }
  }, 600_000);
});
