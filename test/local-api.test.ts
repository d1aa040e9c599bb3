import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
// The package's own entry point (package.json "exports"), built in dist/: what a user imports.
import {
  createCms, CmsError, inMemoryDatabaseUrl, isCmsError, isOperationName, loadConfig, operations, resolveConfig,
  type Actor, type Cms, type CmsConfigInput, type InputOf, type OutputOf,
} from 'cms';
import { createTestDatabase, testDriver } from './helpers/db.js';

const terminal: { actor: Actor } = { actor: { kind: 'terminal' } };
const article = { slug: 'article', name: 'Article', fields: [{ name: 'body', type: 'text' }] };

describe(`the Local API: import { createCms } from 'cms' (${testDriver})`, () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let settings: CmsConfigInput;
  let cms: Cms;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-local-api-'));
    database = await createTestDatabase();
    // No config file and no environment: a folder (and, on PostgreSQL, its URL) is all it takes.
    settings = { rootDir: dir, ...(database.url ? { databaseUrl: database.url } : {}) };
    cms = await createCms(settings);
  });
  afterAll(async () => {
    await cms?.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fills in a configuration from a few settings: the default project, data in <rootDir>/.cms', () => {
    expect(cms.config).toMatchObject({ project: 'default', rootDir: dir, dataDir: join(dir, '.cms'), configFile: null });
    if (testDriver === 'pglite') expect(existsSync(join(dir, '.cms', 'db'))).toBe(true);
  });

  it('creates a page, publishes it and reads it through delivery, as the terminal, with typed answers', async () => {
    await cms.run('types.create', { kind: 'pageTypes', definition: article }, terminal);
    const input: InputOf<'pages.create'> = { pageTypeSlug: 'article', name: 'Hello', slug: 'hello', fields: { body: 'Hi there' } };
    const page = await cms.run('pages.create', input, terminal);
    expectTypeOf(page).toEqualTypeOf<OutputOf<'pages.create'>>();
    expectTypeOf(page.version).toEqualTypeOf<number>();
    expect(page).toMatchObject({ slug: 'hello', status: 'draft', version: 1 });

    // A draft is not delivered.
    await expect(cms.run('delivery.pages.get', { slug: 'hello' }, terminal)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const published = await cms.run('pages.publish', { ref: { slug: 'hello' } }, terminal);
    expect(published.status).toBe('published');
    const delivered = await cms.run('delivery.pages.get', { slug: 'hello' }, terminal);
    expect(JSON.stringify(delivered)).toContain('Hi there');
  });

  it('checks the actor and the input: contract errors, as CmsError values of the package', async () => {
    const anonymous = cms.run('pages.create', { pageTypeSlug: 'article', name: 'No', slug: 'no', fields: {} }, { actor: { kind: 'anonymous' } });
    await expect(anonymous).rejects.toBeInstanceOf(CmsError);
    await expect(anonymous).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const bad = await cms.runRequest('pages.create', { pageTypeSlug: 'article', name: '', slug: 'Not A Slug' }, terminal).catch((e: unknown) => e);
    expect(isCmsError(bad) && bad.code).toBe('VALIDATION_FAILED');
    // Plain JavaScript may leave the actor out: told as UNAUTHORIZED, naming what to pass.
    for (const options of [{}, undefined, { actor: { kind: 'root' } }]) {
      // @ts-expect-error: what a JavaScript caller can write
      const missing = await cms.runRequest('delivery.pages.list', {}, options).catch((e: unknown) => e);
      expect(isCmsError(missing) && missing.code).toBe('UNAUTHORIZED');
      expect(isCmsError(missing) && missing.message).toContain('{ actor }');
    }
  });

  it('lists every operation by name', () => {
    expect(isOperationName('pages.create')).toBe(true);
    expect(isOperationName('pages.nope')).toBe(false);
    expect(Object.keys(operations)).toEqual(expect.arrayContaining(['pages.create', 'pages.publish', 'delivery.pages.get']));
  });

  it('keeps the content: a new engine on the same settings reads what the last one wrote', async () => {
    await cms.close();
    cms = await createCms(settings);
    const page = await cms.run('pages.get', { ref: { slug: 'hello' } }, terminal);
    expect(page.status).toBe('published');
  });

  it('takes a configuration from loadConfig as it is (what the CLI and the server do)', async () => {
    const config = loadConfig({ cwd: dir, env: database.url ? { DATABASE_URL: database.url } : {} });
    expect(resolveConfig(config)).toBe(config);
    await cms.close();
    cms = await createCms(config);
    expect(cms.config).toBe(config);
    expect((await cms.run('pages.list', {}, terminal)).data.map((p) => p.slug)).toEqual(['hello']);
  });
});

describe('the Local API in memory (memory://)', () => {
  it('starts empty, works, and leaves no database files behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-local-api-memory-'));
    try {
      const cms = await createCms({ rootDir: dir, databaseUrl: inMemoryDatabaseUrl, project: 'scratch' });
      try {
        await cms.run('types.create', { kind: 'pageTypes', definition: article }, terminal);
        await cms.run('pages.create', { pageTypeSlug: 'article', name: 'One', slug: 'one', fields: {} }, terminal);
        expect((await cms.run('pages.list', {}, terminal)).data.map((p) => p.slug)).toEqual(['one']);
        expect(cms.config.project).toBe('scratch');
      } finally {
        await cms.close();
      }
      expect(existsSync(join(dir, '.cms', 'db'))).toBe(false);
      expect(readdirSync(dir).filter((name) => name !== '.cms')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a project name that is not a slug', async () => {
    await expect(createCms({ databaseUrl: inMemoryDatabaseUrl, project: 'Not a slug' })).rejects.toThrow(/project must be a project slug/);
  });
});
