import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAdminDir } from '../../src/http/admin-static.js';
import { serveInProcess } from '../helpers/http.js';
import { runCli, startCliServer } from '../helpers/cli.js';
import { createTestDatabase } from '../helpers/db.js';
import { createAdminHarness, password, type AdminHarness } from '../admin/support.js';
import { launchBrowser, newPage, seriousViolations, shoot, signIn } from './support.js';

// The admin web app (dist/admin, built by `npm run build`) driven in headless Chromium against the
// real server on a socket.
let h: AdminHarness;
let browser: Browser;
let project = '';
const editorEmail = 'editor@example.test';
const viewerEmail = 'viewer@example.test';

beforeAll(async () => {
  h = await createAdminHarness();
  [{ slug: project }] = await h.t.run('projects.list', {});
  await h.t.run('types.create', { kind: 'pageTypes', definition: { slug: 'article', name: 'Articles', fields: [
    { name: 'title', type: 'text', required: true },
    { name: 'body', type: 'textarea' },
  ] } });
  await h.t.run('types.create', { kind: 'pageTypes', definition: { slug: 'landing', name: 'Landing pages', fields: [{ name: 'title', type: 'text' }] } });
  await h.t.run('types.create', { kind: 'collections', definition: { slug: 'products', name: 'Products', fields: [{ name: 'price', type: 'number' }] } });
  for (let i = 1; i <= 25; i++) {
    const n = String(i).padStart(2, '0');
    await h.t.run('pages.create', { pageTypeSlug: 'article', name: `Article ${n}`, slug: `article-${n}`, fields: { title: `Title ${n}` } });
  }
  // Long values, and one that cannot be published (its required title is missing).
  await h.t.run('pages.create', { pageTypeSlug: 'article', name: `A very long name ${'that goes on and on '.repeat(8)}`, slug: `long-${'x'.repeat(120)}`, fields: { title: 'Long' } });
  await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Untitled draft', slug: 'untitled-draft', fields: {} });
  await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Zebra published', slug: 'zebra', fields: { title: 'Zebra' }, status: 'published' });
  await h.t.run('items.create', { collectionTypeSlug: 'products', name: 'Lamp', slug: 'lamp', fields: { price: 10 } });
  const author = await h.t.run('blog.authors.create', { firstName: 'Ada', lastName: 'Lovelace', slug: 'ada' });
  await h.t.run('blog.posts.create', { title: 'Hello blog', slug: 'hello-blog', summary: 'First post', author: author.id });
  // The editor is a member of two projects; the viewer of the default one only.
  await h.createUser('editor', { email: editorEmail });
  await h.createUser('viewer', { email: viewerEmail });
  await h.t.cms.run('projects.create', { slug: 'second', name: 'Second site' }, { actor: { kind: 'terminal' } });
  await h.t.cms.run('types.create', { kind: 'collections', definition: { slug: 'events', name: 'Events', fields: [] } }, { actor: { kind: 'terminal' }, project: 'second' });
  await h.t.cms.run('members.add', { email: editorEmail, role: 'editor' }, { actor: { kind: 'terminal' }, project: 'second' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe('the admin app over HTTP', () => {
  it('serves index.html at /admin/ and client routes, uncached, with a strict CSP, DENY framing and nosniff', async () => {
    for (const path of ['/admin/', '/admin/p/x/pages/article?page=2', '/admin/login']) {
      const res = await h.fetch(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toContain('<div id="root"></div>');
    }
    const head = await h.fetch('/admin/p/x', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('cache-control')).toBe('no-cache');
    expect(await head.text()).toBe('');
    const bare = await h.fetch('/admin', { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/admin/');
  });

  it('serves hashed assets immutable for a year, and 404 for unknown or escaping asset paths', async () => {
    const index = await (await h.fetch('/admin/')).text();
    const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(index)?.[1];
    expect(script).toBeDefined();
    const res = await h.fetch(script!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await h.fetch('/admin/assets/nope-123.js')).status).toBe(404);
    expect((await h.fetch('/admin/assets/..%2f..%2fpackage.json')).status).toBe(404);
    // The API is not shadowed.
    expect((await h.fetch('/api/v1/admin/auth/me')).status).toBe(401);
  });

  it('keeps the first screen under 250 KB of gzipped JavaScript; the rich text editor loads lazily', async () => {
    const { gzipSync } = await import('node:zlib');
    const { readFileSync } = await import('node:fs');
    const read = (f: string) => readFileSync(join(defaultAdminDir, 'assets', f), 'utf8');
    // The first screen: the scripts index.html loads or preloads, and what they import statically
    // (`import ... from "./x.js"`; dynamic `import("./x.js")` chunks are not part of it).
    const html = readFileSync(join(defaultAdminDir, 'index.html'), 'utf8');
    const first = new Set([...html.matchAll(/\/admin\/assets\/([\w.-]+\.js)/g)].map((m) => m[1]!));
    expect(first.size).toBeGreaterThan(0);
    for (const f of first) {
      for (const m of read(f).matchAll(/\b(?:import|export)\s*(?:[\w*{}\s,$]*?from\s*)?["']\.\/([\w.-]+\.js)["']/g)) first.add(m[1]!);
    }
    const gz = [...first].reduce((sum, f) => sum + gzipSync(read(f), { level: 9 }).byteLength, 0);
    expect(gz).toBeLessThan(250 * 1024);
    // TipTap/ProseMirror is a chunk of its own, outside the first screen.
    const js = readdirSync(join(defaultAdminDir, 'assets')).filter((f) => f.endsWith('.js'));
    const editor = js.filter((f) => read(f).includes('ProseMirror'));
    expect(editor.length).toBeGreaterThan(0);
    for (const f of editor) expect(first.has(f)).toBe(false);
  });

  it('`cms serve` serves the app at /admin beside the API', { timeout: 180_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'cms-admin-app-'));
    const database = await createTestDatabase();
    const env = { CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, CMS_BASE_URL: undefined, PORT: undefined, HOST: undefined, DATABASE_URL: database.url };
    try {
      const init = await runCli(['init', 'demo', '--yes'], { cwd: root, env, timeoutMs: 180_000 });
      expect(init.code, init.stderr).toBe(0);
      const server = await startCliServer([], { cwd: join(root, 'demo'), env });
      try {
        const res = await fetch(`${server.url}/admin/p/default/pages/landing-page`);
        expect(res.status).toBe(200);
        expect(res.headers.get('x-frame-options')).toBe('DENY');
        expect(await res.text()).toContain('<div id="root"></div>');
        expect((await fetch(`${server.url}/api/v1/admin/auth/me`)).status).toBe(401);
      } finally {
        await server.stop();
      }
    } finally {
      await database.drop();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('answers a clear 503 page when the app is not built', async () => {
    const http = serveInProcess(h.t.cms, { adminDir: join(h.t.dir, 'no-such-build') });
    const res = await http.fetch('/admin/');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toContain('npm run build');
  });
});

describe('the admin app in a browser', () => {
  it('refuses a wrong password with the API’s message, then throttles with the wait time', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/`);
    await page.waitForURL(/\/admin\/login/);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'sign-in');
    await signIn(page, 'nobody@example.test', 'wrong password');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Email or password is incorrect');
    for (let i = 0; i < 4; i++) {
      // Waited for from before the click: a fast answer could come before a wait set up after it.
      const answered = page.waitForResponse((r) => r.url().endsWith('/auth/login'));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await answered;
    }
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^Too many failed sign-ins\. Try again in \d+ minutes?\.$/);
    await shoot(page, 'sign-in-throttled');
    await context.close();
  });

  it('signs in, shows the navigation by schema with counts, lists with paging and opens an entry', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/`);
    await signIn(page, editorEmail);
    await page.waitForURL(new RegExp(`/admin/p/${project}$`));
    const nav = page.getByRole('navigation', { name: 'Content' });
    await expect.poll(() => nav.getByRole('link', { name: /Articles/ }).textContent(), { timeout: 10_000 }).toBe('Articles28');
    await expect.poll(() => nav.getByRole('link', { name: /Landing pages/ }).textContent()).toBe('Landing pages0');
    await expect.poll(() => nav.getByRole('link', { name: /Products/ }).textContent()).toBe('Products1');
    for (const [name, n] of [['Posts', 1], ['Authors', 1], ['Categories', 0], ['Tags', 0], ['Media', 0]] as const) {
      await expect.poll(() => nav.getByRole('link', { name: new RegExp(`^${name}`) }).textContent()).toBe(`${name}${n}`);
    }
    await shoot(page, 'home');

    await nav.getByRole('link', { name: /Articles/ }).click();
    await expect.poll(() => page.getByText('Page 1 of 2').count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.locator('table.list tbody tr').count()).toBe(20);
    // Long values are cut with an ellipsis and carry the whole value in their title.
    await page.getByLabel('Sort').selectOption('name');
    await expect.poll(() => page.locator('table.list tbody tr').first().locator('td.name').textContent()).toMatch(/^A very long name/);
    expect(await page.locator('table.list tbody tr').first().locator('td.name').getAttribute('title')).toMatch(/on and on$/);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'list');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByText('Page 2 of 2').count()).toBe(1);
    await expect.poll(() => page.locator('table.list tbody tr').count()).toBe(8);
    expect(page.url()).toContain('page=2');
    await page.getByRole('link', { name: 'Zebra published' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Zebra published');
    // The entry opens in the editor, its fields in their controls.
    await expect.poll(() => page.locator('.facts').textContent()).toContain('Statuspublished');
    expect(await page.getByLabel('Slug').inputValue()).toBe('zebra');
    expect(await page.getByLabel(/^title \*$/).inputValue()).toBe('Zebra');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'entry');
    // The browser's Back returns to the list where it was.
    await page.goBack();
    await expect.poll(() => page.getByText('Page 2 of 2').count()).toBe(1);
    await context.close();
  });

  it('lists the blog and the media library, and opens a post', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/p/${project}/blog/authors`);
    await signIn(page, editorEmail);
    await expect.poll(() => page.locator('table.list tbody tr').first().textContent()).toMatch(/^Ada Lovelaceada/);
    await page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: /^Media/ }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'No media yet' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Upload files' }).count()).toBe(1);
    await page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: /^Posts/ }).click();
    await page.getByRole('link', { name: 'Hello blog' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Hello blog');
    expect(await page.getByLabel('Summary').inputValue()).toBe('First post');
    await expect.poll(() => page.locator('[data-field="fields.author"] .chip').textContent()).toContain('Ada Lovelace');
    await context.close();
  });

  it('searches by name or slug and filters by status', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/p/${project}/pages/article`);
    await signIn(page, editorEmail);
    await expect.poll(() => page.getByText('Page 1 of 2').count(), { timeout: 10_000 }).toBe(1);
    await page.getByLabel('Search').fill('article-2');
    await expect.poll(() => page.locator('table.list tbody tr').count()).toBe(6);
    await page.getByLabel('Search').fill('zebra');
    await expect.poll(() => page.locator('table.list tbody tr').count()).toBe(1);
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Status').selectOption('published');
    await expect.poll(() => page.locator('table.list tbody tr').count()).toBe(1);
    await page.getByLabel('Search').fill('nothing like this');
    await expect.poll(() => page.getByRole('heading', { name: 'Nothing matches' }).count()).toBe(1);
    await shoot(page, 'list-empty');
    await context.close();
  });

  it('bulk-publishes the selection and shows each item’s result', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/p/${project}/pages/article?sort=-name`);
    await signIn(page, editorEmail);
    await expect.poll(() => page.getByText('Page 1 of 2').count(), { timeout: 10_000 }).toBe(1);
    for (const name of ['Untitled draft', 'Article 25', 'Article 24']) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Publish', exact: true }).click();
    const results = page.getByRole('status', { name: 'Bulk action results' });
    await expect.poll(() => results.locator('strong').textContent()).toBe('Published 2 of 3 · 1 failed');
    const items = await results.locator('li').allTextContents();
    expect(items).toContain('Article 25Published');
    expect(items.find((t) => t.startsWith('Untitled draft'))).toMatch(/^Untitled draftFailed: .+/);
    await shoot(page, 'bulk-results');
    const listed = await h.t.run('pages.list', { query: { pageType: 'article', limit: '100' } });
    expect(listed.data.filter((p: { status: string }) => p.status === 'published').map((p: { slug: string }) => p.slug).sort()).toEqual(['article-24', 'article-25', 'zebra']);
    await context.close();
  });

  it('switches between the projects of a member of several', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/`);
    await signIn(page, editorEmail);
    await page.waitForURL(new RegExp(`/admin/p/${project}$`));
    await page.getByLabel('Project').selectOption('second');
    await page.waitForURL(/\/admin\/p\/second$/);
    const nav = page.getByRole('navigation', { name: 'Content' });
    await expect.poll(() => nav.getByRole('link', { name: /Events/ }).textContent()).toBe('Events0');
    expect(await nav.getByRole('link', { name: /Articles/ }).count()).toBe(0);
    await context.close();
  });

  it('sends an expired session to sign-in and back to where the user was', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/`);
    await signIn(page, editorEmail);
    await page.waitForURL(new RegExp(`/admin/p/${project}$`));
    await page.goto(`${h.http.url}/admin/p/${project}/pages/article?page=2`);
    await expect.poll(() => page.getByText('Page 2 of 2').count()).toBe(1);
    h.clock.advance(8 * 24 * 3600 * 1000);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.waitForURL(/\/admin\/login\?next=/);
    expect(await page.getByRole('status').textContent()).toBe('Your session has ended. Sign in again to continue.');
    await signIn(page, editorEmail);
    await page.waitForURL(new RegExp(`/admin/p/${project}/pages/article\\?page=1$`));
    await expect.poll(() => page.getByText('Page 1 of 2').count(), { timeout: 10_000 }).toBe(1);
    await context.close();
  });

  it('shows a viewer no write controls', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/p/${project}/pages/article`);
    await signIn(page, viewerEmail);
    await expect.poll(() => page.getByText('Page 1 of 2').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    for (const name of ['Publish', 'Unpublish', 'Delete']) expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
    expect(await page.locator('.who').textContent()).toContain('viewer');
    await shoot(page, 'list-viewer');
    await context.close();
  });

  it('signs out: back to sign-in, and the session no longer works', async () => {
    const { context, page } = await newPage(browser, 390);
    await page.goto(`${h.http.url}/admin/`);
    await signIn(page, editorEmail);
    await page.waitForURL(new RegExp(`/admin/p/${project}$`));
    // At 390 px the navigation folds behind the Menu button.
    await page.getByRole('button', { name: 'Menu' }).waitFor();
    await page.getByRole('button', { name: 'Menu' }).click();
    const articles = page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: /Articles/ });
    await expect.poll(() => articles.isVisible()).toBe(true);
    // Escape folds it again, the focus back on Menu.
    await articles.focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => articles.isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate<string>("document.activeElement ? document.activeElement.textContent : ''")).toBe('Menu');
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect.poll(() => articles.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/admin\/login$/);
    const me = await page.evaluate(async () => (await fetch('/api/v1/admin/auth/me')).status);
    expect(me).toBe(401);
    await context.close();
  });

  it('is operable by keyboard: Tab reaches the sign-in fields and Enter signs in', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/login`);
    // The form appears once the app has asked whether a session exists.
    await page.locator('#email').waitFor({ state: 'visible' });
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').getAttribute('id')).toBe('email');
    await page.keyboard.type(editorEmail);
    await page.keyboard.press('Tab');
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/admin/p/${project}$`));
    await page.getByRole('link', { name: 'Skip to content' }).waitFor({ state: 'attached' });
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').textContent()).toBe('Skip to content');
    await context.close();
  });
});
