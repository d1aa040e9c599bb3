import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/cli.js';
import { createTestDatabase } from '../helpers/db.js';

/** The admin verbs of `cms pages` and `cms items`, run in process on one project folder, in order. */
describe('cms pages / cms items admin verbs', () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;

  const cli = (...args: string[]) => runCliInProcess(args, { cwd: dir, env: { ...(database.url ? { DATABASE_URL: database.url } : {}) } });
  const ok = async (...args: string[]) => {
    const r = await cli(...args, '--json');
    expect(r.code, r.stderr).toBe(0);
    return r.json();
  };

  let page: { id: string; slug: string };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-admin-cli-'));
    database = await createTestDatabase();
    expect((await cli('init', '.', '--yes')).code).toBe(0);
    expect((await cli('schema', 'push')).code).toBe(0);
    page = (await ok('pages', 'create', '--type', 'landing-page', '--name', 'Home', '--slug', 'home', '--fields', '{"headline":"Hi"}')).data;
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('clones a page into a draft', async () => {
    const { data } = await ok('pages', 'clone', 'home');
    expect(data).toMatchObject({ slug: 'home-copy', status: 'draft', draftContent: { headline: 'Hi' } });
    const named = await ok('pages', 'clone', page.id, '--slug', 'home-two', '--name', 'Home two');
    expect(named.data).toMatchObject({ slug: 'home-two', name: 'Home two' });
  });

  it('lists versions and restores one', async () => {
    await ok('pages', 'publish', 'home');
    await ok('pages', 'update', 'home', '--fields', '{"headline":"Changed"}');
    const versions = await ok('pages', 'versions', 'home');
    expect(versions.data).toEqual([{ version: 1, status: 'published', createdBy: 'terminal', createdAt: expect.any(String) }]);
    const restored = await ok('pages', 'restore', 'home', '1');
    expect(restored.data).toMatchObject({ version: 3, draftContent: { headline: 'Hi' } });
    const text = await cli('pages', 'versions', 'home');
    expect(text.stdout).toMatch(/VERSION\s+STATUS/);
    expect(text.stdout).toMatch(/^3\s+published/m);
    const bad = await cli('pages', 'restore', 'home', 'latest');
    expect(bad.code).toBe(2);
  });

  it('resolves a conflict', async () => {
    const { data } = await ok('pages', 'resolve-conflict', 'home', '--base-version', '2', '--strategy', 'mine', '--fields', '{"intro":"Mine"}');
    expect(data).toMatchObject({ version: 4, draftContent: { headline: 'Hi', intro: 'Mine' } });
  });

  it('schedules, unschedules, and publishes what is due', async () => {
    const at = new Date(Date.now() + 3600_000).toISOString();
    expect((await ok('pages', 'schedule', 'home-copy', '--at', at)).data.publishAt).toBe(at);
    expect((await ok('pages', 'unschedule', 'home-copy')).data.publishAt).toBeNull();
    const past = await cli('pages', 'schedule', 'home-copy', '--at', '2000-01-01T00:00:00Z', '--json');
    expect(past.code).toBe(1);
    expect(past.json().error.code).toBe('VALIDATION_FAILED');
    expect((await ok('pages', 'publish-due')).data).toEqual({ published: [], failed: [], unpublished: [] });
  });

  it('schedules an unpublish with --unpublish-at and cancels only it with --only unpublish', async () => {
    const at = new Date(Date.now() + 3600_000).toISOString();
    const later = new Date(Date.now() + 7200_000).toISOString();
    const both = await cli('pages', 'schedule', 'home-copy', '--at', at, '--unpublish-at', later);
    expect(both.code).toBe(0);
    expect(both.stdout).toContain(`will be published at ${at}`);
    expect(both.stdout).toContain(`will be unpublished at ${later}`);
    const stored = (await ok('pages', 'get', 'home-copy')).data;
    expect(stored).toMatchObject({ publishAt: at, unpublishAt: later });
    const before = await cli('pages', 'schedule', 'home-copy', '--unpublish-at', new Date(Date.now() + 60_000).toISOString(), '--json');
    expect(before.code).toBe(1);
    expect(before.json().error).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ path: 'unpublishAt' })] });
    expect((await cli('pages', 'unschedule', 'home-copy', '--only', 'later')).code).toBe(2);
    expect((await ok('pages', 'unschedule', 'home-copy', '--only', 'unpublish')).data).toMatchObject({ publishAt: at, unpublishAt: null });
    expect((await ok('pages', 'unschedule', 'home-copy')).data).toMatchObject({ publishAt: null, unpublishAt: null });
  });

  it('runs bulk actions with a result per id and exit code 1 when one fails', async () => {
    const copy = (await ok('pages', 'get', 'home-copy')).data;
    const two = (await ok('pages', 'get', 'home-two')).data;
    const pub = await ok('pages', 'bulk-publish', copy.id, two.id);
    expect(pub.data).toEqual([{ id: copy.id, ok: true }, { id: two.id, ok: true }]);
    const un = await ok('pages', 'bulk-unpublish', `${copy.id},${two.id}`);
    expect(un.data.every((r: { ok: boolean }) => r.ok)).toBe(true);
    const missing = '00000000-0000-4000-8000-000000000000';
    const mixed = await cli('pages', 'bulk-delete', copy.id, missing, '--json');
    expect(mixed.code).toBe(1);
    expect(mixed.json().data).toEqual([
      { id: copy.id, ok: true },
      { id: missing, ok: false, error: { code: 'NOT_FOUND', message: expect.any(String) } },
    ]);
    expect((await cli('pages', 'get', 'home-copy')).code).toBe(1);
  });

  it('does the same for collection items with --collection', async () => {
    const item = (await ok('items', 'create', '--collection', 'products', '--name', 'Rocket', '--slug', 'rocket', '--fields', '{"sku":"R-1"}')).data;
    const clone = await ok('items', 'clone', 'rocket', '--collection', 'products');
    expect(clone.data).toMatchObject({ slug: 'rocket-copy', collectionTypeSlug: 'products' });
    await ok('items', 'publish', 'rocket', '--collection', 'products');
    expect((await ok('items', 'versions', 'rocket', '--collection', 'products')).data).toHaveLength(1);
    expect((await ok('items', 'restore', 'rocket', '1', '--collection', 'products')).data.version).toBe(2);
    const at = new Date(Date.now() + 3600_000).toISOString();
    expect((await ok('items', 'schedule', 'rocket', '--collection', 'products', '--at', at)).data.publishAt).toBe(at);
    expect((await ok('items', 'unschedule', 'rocket', '--collection', 'products')).data.publishAt).toBeNull();
    const bulk = await ok('items', 'bulk-unpublish', item.id, '--collection', 'products');
    expect(bulk.data).toEqual([{ id: item.id, ok: true }]);
    const del = await ok('items', 'bulk-delete', item.id, clone.data.id, '--collection', 'products', '--force');
    expect(del.data.map((r: { ok: boolean }) => r.ok)).toEqual([true, true]);
    // --collection is required for items.
    expect((await cli('items', 'clone', 'rocket')).code).toBe(2);
  });
});
