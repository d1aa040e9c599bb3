import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';

/** Generous: each CLI run starts Node and opens the database, and CI machines may be busy. */
const cliTimeout = 180_000;
const cleanEnv: NodeJS.ProcessEnv = { CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, CMS_PASSWORD: undefined, CMS_BASE_URL: undefined, PORT: undefined, HOST: undefined };

const article = (bodyLocalized: boolean) => ({
  slug: 'article', name: 'Article', fields: [
    { name: 'title', type: 'text', required: true, localized: true },
    { name: 'body', type: 'textarea', ...(bodyLocalized ? { localized: true } : {}) },
    { name: 'minutes', type: 'number' },
  ],
});

/**
 * `--locale` on the CLI's writes (issue 13), the built CLI as a child process in a project folder
 * made with `cms init --locales en,fr`; the tests run in order.
 */
describe(`cms writes in a locale (${testDriver})`, { timeout: cliTimeout }, () => {
  let root: string;
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const cli = (args: string[], cwd?: string): Promise<CliResult> =>
    runCli(args, { cwd: cwd ?? dir, env: { ...cleanEnv, DATABASE_URL: database.url }, timeoutMs: cliTimeout });
  const writeArticle = (bodyLocalized: boolean) =>
    writeFileSync(join(dir, 'schemas', 'page-types', 'article.json'), JSON.stringify(article(bodyLocalized)));

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cms-locale-cli-'));
    dir = join(root, 'site');
    database = await createTestDatabase();
    const init = await cli(['init', 'site', '--yes', '--locales', 'en,fr'], root);
    expect(init.code, init.stderr).toBe(0);
    mkdirSync(join(dir, 'schemas', 'page-types'), { recursive: true });
    writeArticle(true);
    const push = await cli(['schema', 'push']);
    expect(push.code, push.stderr).toBe(0);
  });
  afterAll(async () => {
    await database.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('pages create and update --locale write that locale\'s values; the answer shows every locale', async () => {
    const created = await cli(['pages', 'create', '--type', 'article', '--name', 'About', '--slug', 'about', '--fields', '{"title":"About","body":"Bread","minutes":2}', '--json']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.json().data.draftLocales).toEqual({});
    const updated = await cli(['pages', 'update', 'about', '--locale', 'fr', '--fields', '{"title":"À propos","body":"Pain","minutes":3}', '--seo', '{"metaTitle":"À propos"}', '--json']);
    expect(updated.code, updated.stderr).toBe(0);
    const page = updated.json().data;
    expect(page.version).toBe(2);
    expect(page.draftContent).toEqual({ title: 'About', body: 'Bread', minutes: 3 });
    expect(page.draftLocales).toEqual({ fr: { title: 'À propos', body: 'Pain' } });
    expect(page.seoLocales).toEqual({ fr: { metaTitle: 'À propos' } });
  });

  it('an unknown --locale is refused: VALIDATION_FAILED naming locale, exit code 1', async () => {
    const r = await cli(['pages', 'update', 'about', '--locale', 'de', '--fields', '{"title":"Über"}']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('VALIDATION_FAILED');
    expect(r.stderr).toContain('locale: unknown locale "de"');
  });

  it('publish puts every locale live; items and blog posts take --locale too', async () => {
    const pub = await cli(['pages', 'publish', 'about', '--json']);
    expect(pub.code, pub.stderr).toBe(0);
    expect(pub.json().data.publishedLocales).toEqual({ fr: { title: 'À propos', body: 'Pain' } });
    const item = await cli(['items', 'create', '--collection', 'products', '--name', 'Loaf', '--slug', 'loaf', '--locale', 'fr', '--json']);
    expect(item.code, item.stderr).toBe(0);
    expect(item.json().data.draftLocales).toEqual({});
    const post = await cli(['blog', 'posts', 'create', '--title', 'Hello', '--json']);
    expect(post.code, post.stderr).toBe(0);
    const fr = await cli(['blog', 'posts', 'update', post.json().data.id, '--locale', 'fr', '--title', 'Bonjour', '--summary', 'Salut', '--json']);
    expect(fr.code, fr.stderr).toBe(0);
    expect(fr.json().data).toMatchObject({ title: 'Hello', locales: { fr: { title: 'Bonjour', summary: 'Salut' } } });
  });

  it('schema diff and push show a field becoming shared, and push drops its other locales\' values', async () => {
    writeArticle(false);
    const diff = await cli(['schema', 'diff']);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('pageTypes/article: field body becomes shared (the default locale\'s value stays; 1 entry loses other locales\' values)');
    const push = await cli(['schema', 'push', '--json']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.json().data.localization).toEqual([{ kind: 'pageTypes', slug: 'article', field: 'body', direction: 'shared', entriesLosingValues: 1 }]);
    const got = await cli(['pages', 'get', 'about', '--json']);
    expect(got.json().data).toMatchObject({
      draftContent: { title: 'About', body: 'Bread', minutes: 3 },
      draftLocales: { fr: { title: 'À propos' } }, publishedLocales: { fr: { title: 'À propos' } },
    });
  });
});
