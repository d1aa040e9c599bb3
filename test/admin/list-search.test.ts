import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { createTestDatabase } from '../helpers/db.js';
import { createAdminHarness, type AdminHarness } from './support.js';

// The admin list's `search` (name or slug, any case) and `status` (draft, published, scheduled):
// one operation (pages.list / items.list), through the admin API and `cms pages|items list`.

describe('admin list search and status over HTTP', () => {
  let h: AdminHarness;
  let cookie = '';
  const slugsOf = async (path: string) => {
    const res = await h.call('GET', path, { cookie });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    return { slugs: body.data.map((e: { slug: string }) => e.slug).sort(), total: body.pagination.total };
  };

  beforeAll(async () => {
    h = await createAdminHarness();
    await h.t.run('types.create', { kind: 'pageTypes', definition: { slug: 'article', name: 'Article', fields: [{ name: 'title', type: 'text' }] } });
    await h.t.run('types.create', { kind: 'collections', definition: { slug: 'products', name: 'Products', fields: [] } });
    await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Alpha Story', slug: 'first', fields: {} });
    await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Beta', slug: 'second-alpha', fields: {}, status: 'published' });
    const gamma = await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Gamma 100%', slug: 'third', fields: {} });
    await h.t.run('pages.schedule', { ref: { id: gamma.id }, publishAt: '2026-02-01T00:00:00.000Z' });
    await h.t.run('items.create', { collectionTypeSlug: 'products', name: 'Lamp', slug: 'lamp', fields: {} });
    await h.t.run('items.create', { collectionTypeSlug: 'products', name: 'Table', slug: 'table-lamp', fields: {}, status: 'published' });
    await h.t.run('items.create', { collectionTypeSlug: 'products', name: 'Chair', slug: 'chair', fields: {} });
    const user = await h.createUser('viewer');
    cookie = await h.signIn(user.email);
  });
  afterAll(() => h?.close());

  it('search matches name or slug, in any case, and counts what it matches', async () => {
    expect(await slugsOf('/api/v1/admin/pages?search=ALPHA')).toEqual({ slugs: ['first', 'second-alpha'], total: 2 });
    expect(await slugsOf('/api/v1/admin/pages?search=thir')).toEqual({ slugs: ['third'], total: 1 });
    expect(await slugsOf('/api/v1/admin/collection-items?collection=products&search=lamp')).toEqual({ slugs: ['lamp', 'table-lamp'], total: 2 });
    // LIKE's wildcards are plain characters.
    expect(await slugsOf('/api/v1/admin/pages?search=%25')).toEqual({ slugs: ['third'], total: 1 });
    expect(await slugsOf('/api/v1/admin/pages?search=_')).toEqual({ slugs: [], total: 0 });
    // An empty search is no search.
    expect((await slugsOf('/api/v1/admin/pages?search=')).total).toBe(3);
  });

  it('status draft, published or scheduled (a draft waiting for its publishAt)', async () => {
    expect(await slugsOf('/api/v1/admin/pages?status=draft')).toEqual({ slugs: ['first'], total: 1 });
    expect(await slugsOf('/api/v1/admin/pages?status=published')).toEqual({ slugs: ['second-alpha'], total: 1 });
    expect(await slugsOf('/api/v1/admin/pages?status=scheduled')).toEqual({ slugs: ['third'], total: 1 });
    expect(await slugsOf('/api/v1/admin/pages?status=draft&search=alpha&pageType=article')).toEqual({ slugs: ['first'], total: 1 });
    expect(await slugsOf('/api/v1/admin/collection-items?collection=products&status=published')).toEqual({ slugs: ['table-lamp'], total: 1 });
  });

  it('refuses an unknown status with INVALID_QUERY', async () => {
    const res = await h.call('GET', '/api/v1/admin/pages?status=live', { cookie });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toEqual({
      code: 'INVALID_QUERY',
      message: 'Invalid query parameter status: must be one of draft, published, scheduled',
      details: { parameter: 'status', reason: 'must be one of draft, published, scheduled' },
    });
  });
});

describe('cms pages list --search --status', { timeout: 180_000 }, () => {
  let root: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const env = { CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, CMS_PASSWORD: undefined, CMS_BASE_URL: undefined };
  const cli = (args: string[]) => runCli(args, { cwd: join(root, 'demo'), env: { ...env, DATABASE_URL: database.url }, timeoutMs: 180_000 });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cms-cli-'));
    database = await createTestDatabase();
    const init = await runCli(['init', 'demo', '--yes'], { cwd: root, env: { ...env, DATABASE_URL: database.url }, timeoutMs: 180_000 });
    expect(init.code, init.stderr).toBe(0);
    const push = await cli(['schema', 'push']);
    expect(push.code, push.stderr).toBe(0);
    for (const [name, slug] of [['Alpha', 'first'], ['Beta', 'beta-alpha']] as const) {
      const r = await cli(['pages', 'create', '--type', 'landing-page', '--name', name, '--slug', slug, '--fields', '{"headline":"H"}']);
      expect(r.code, r.stderr).toBe(0);
    }
    expect((await cli(['pages', 'publish', 'beta-alpha'])).code).toBe(0);
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('lists what the search and status match, and says when nothing does', async () => {
    const both = await cli(['pages', 'list', '--search', 'alpha', '--json']);
    expect(both.code, both.stderr).toBe(0);
    expect(both.json().data.map((p: { slug: string }) => p.slug).sort()).toEqual(['beta-alpha', 'first']);
    const published = await cli(['pages', 'list', '--search', 'alpha', '--status', 'published', '--json']);
    expect(published.json().data.map((p: { slug: string }) => p.slug)).toEqual(['beta-alpha']);
    const none = await cli(['pages', 'list', '--status', 'scheduled']);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe('No pages match the search or status.\n');
    const bad = await cli(['pages', 'list', '--status', 'live']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Allowed choices are draft, published, scheduled");
  });
});
