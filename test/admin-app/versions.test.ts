import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminHarness, type AdminHarness } from '../admin/support.js';
import { launchBrowser, newPage, seriousViolations, shoot, signIn } from './support.js';

// The entry editor's conflict resolution, versions, preview and locale switcher, driven in headless
// Chromium against the real server on a socket (dist/admin built by `npm run build`).
/** expect.poll with room for a loaded machine (its default is one second). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });
const template = 'http://localhost:5173/{type}/{slug}?preview={previewKey}&locale={locale}';
const adminEmail = 'admin-versions@example.test';
const editorEmail = 'editor-versions@example.test';
let h: AdminHarness;
let plain: AdminHarness;
let browser: Browser;
let project = '';
let adminCookie = '';

const articleFields = [
  { name: 'title', label: 'Title', type: 'text', required: true },
  { name: 'summary', label: 'Summary', type: 'text' },
  { name: 'body', label: 'Body', type: 'textarea' },
];

beforeAll(async () => {
  h = await createAdminHarness({ config: { previewUrl: template } });
  [{ slug: project }] = await h.t.run('projects.list', {});
  await h.t.run('types.create', { kind: 'pageTypes', definition: { slug: 'article', name: 'Articles', fields: articleFields } });
  await h.createUser('admin', { email: adminEmail });
  await h.createUser('editor', { email: editorEmail });
  adminCookie = await h.signIn(adminEmail);
  // A second project in two languages: title and body are localized, price is shared.
  const terminal = { actor: { kind: 'terminal' as const } };
  await h.t.cms.run('projects.create', { slug: 'intl', name: 'Two languages' }, terminal);
  await h.t.cms.run('locales.add', { code: 'fr', name: 'Français' }, { ...terminal, project: 'intl' });
  await h.t.cms.run('types.create', { kind: 'pageTypes', definition: { slug: 'article', name: 'Articles', fields: [
    { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
    { name: 'body', label: 'Body', type: 'textarea', localized: true },
    { name: 'price', label: 'Price', type: 'number' },
  ] } }, { ...terminal, project: 'intl' });
  await h.t.cms.run('members.add', { email: adminEmail, role: 'admin' }, { ...terminal, project: 'intl' });
  // A server without a preview URL template, for the JSON preview.
  plain = await createAdminHarness();
  await plain.t.run('types.create', { kind: 'pageTypes', definition: { slug: 'article', name: 'Articles', fields: articleFields } });
  await plain.createUser('admin', { email: adminEmail });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await h?.close();
  await plain?.close();
});

async function openEntry(server: AdminHarness, p: Page, path: string, email = adminEmail): Promise<void> {
  await p.goto(`${server.http.url}/admin${path}`);
  await signIn(p, email);
  await p.getByRole('textbox', { name: /^Name/ }).waitFor();
}

const getPage = async (id: string, projectSlug = project) =>
  (await (await h.call('GET', `/api/v1/admin/pages/${id}`, { cookie: adminCookie, project: projectSlug })).json()).data;

describe('the entry editor: conflicts, versions, preview, locales', () => {
  it('resolves a 409 conflict field by field, keeping what was typed until then', async () => {
    const created = await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Conflicted', slug: 'conflicted', fields: { title: 'Base', summary: 'base summary', body: 'base body' } });
    const { page, context } = await newPage(browser);
    await openEntry(h, page, `/p/${project}/pages/article/${created.id}`);
    // With one locale there is no switcher.
    expect(await page.getByLabel('Editing in').count()).toBe(0);
    // Someone else saves meanwhile, through the API.
    await h.t.run('pages.update', { ref: { id: created.id }, fields: { title: 'Their title', body: 'their body' } });
    await page.getByRole('textbox', { name: /^Title/ }).fill('My title');
    await page.getByRole('textbox', { name: /^Summary/ }).fill('my summary');
    await page.getByRole('button', { name: 'Save draft' }).click();

    const dialog = page.getByRole('dialog', { name: 'Someone else saved this entry meanwhile' });
    await dialog.waitFor();
    await poll(() => page.evaluate('document.querySelector("[role=dialog]").contains(document.activeElement)')).toBe(true);
    await dialog.getByRole('group', { name: 'Title' }).waitFor();
    expect(await dialog.getByRole('group').allInnerTexts()).toHaveLength(3);
    expect(await dialog.getByLabel('Title: theirs').innerText()).toBe('Their title');
    expect(await dialog.getByLabel('Title: mine').innerText()).toBe('My title');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'versions-conflict');

    // Escape closes the dialog and keeps what was typed.
    await page.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
    expect(await page.getByRole('textbox', { name: /^Title/ }).inputValue()).toBe('My title');
    await page.getByRole('button', { name: /Resolve/ }).click();
    await dialog.waitFor();

    // Merge: their title and body, my summary.
    await dialog.getByRole('group', { name: 'Title' }).getByRole('radio', { name: /Theirs/ }).check();
    await dialog.getByRole('group', { name: 'Body' }).getByRole('radio', { name: /Theirs/ }).check();
    await dialog.getByRole('button', { name: 'Save the merge' }).click();
    await poll(() => dialog.count()).toBe(0);
    const after = await getPage(created.id);
    expect(after.draftContent).toEqual({ title: 'Their title', summary: 'my summary', body: 'their body' });
    // The editor reloaded at the new version.
    await poll(() => page.getByRole('textbox', { name: /^Title/ }).inputValue()).toBe('Their title');
    expect(await page.getByRole('textbox', { name: /^Summary/ }).inputValue()).toBe('my summary');
    await context.close();
  });

  it('shows a stored version against the draft, field by field, and restores it', async () => {
    const long = 'A long body. '.repeat(60);
    const created = await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Versioned', slug: 'versioned', fields: { title: 'First title', body: long } });
    await h.t.run('pages.publish', { ref: { id: created.id } });
    // Unpublish and publish again: each stores version 1 once more (the same content).
    await h.t.run('pages.unpublish', { ref: { id: created.id } });
    await h.t.run('pages.publish', { ref: { id: created.id } });
    await h.t.run('pages.update', { ref: { id: created.id }, fields: { title: 'Second title', body: `${long}And one more sentence.`, summary: 'new summary' } });
    const { page, context } = await newPage(browser);
    await openEntry(h, page, `/p/${project}/pages/article/${created.id}`);
    const panel = page.getByRole('region', { name: 'Versions' });
    const ones = panel.getByRole('button', { name: /^Version 1/ });
    await poll(() => ones.count()).toBe(3);
    expect(await ones.last().innerText()).toContain('by the terminal');
    await ones.last().click();
    // The row chosen is marked, not every row of its number.
    await poll(() => panel.locator('button[aria-pressed="true"]').count()).toBe(1);
    expect(await ones.last().getAttribute('aria-pressed')).toBe('true');
    await panel.getByRole('heading', { name: 'Version 1 compared with the current draft' }).waitFor();
    const titleDiff = panel.getByLabel('Title: the current draft to version 1');
    await titleDiff.waitFor();
    expect(await titleDiff.locator('del').innerText()).toContain('Second');
    expect(await titleDiff.locator('ins').innerText()).toContain('First');
    expect(await panel.getByLabel('Body: the current draft to version 1').locator('del').innerText()).toContain('And one more sentence.');
    expect(await panel.getByRole('heading', { name: /Summary/ }).innerText()).toContain('removed');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'versions-diff');

    await panel.getByRole('button', { name: 'Restore version 1…' }).click();
    await panel.getByRole('button', { name: 'Restore', exact: true }).click();
    await poll(() => page.getByRole('textbox', { name: /^Title/ }).inputValue()).toBe('First title');
    const after = await getPage(created.id);
    expect(after.draftContent).toEqual({ title: 'First title', body: long });
    expect(after.version).toBe(3);
    // The restore is stored as a version, by the member who restored it.
    await poll(() => panel.getByRole('button', { name: /^Version 3/ }).innerText()).toContain(`by you (${adminEmail})`);
    await context.close();
  });

  it('opens the preview URL of the template with a new preview key, and tells an editor a key is needed', async () => {
    const created = await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Preview me', slug: 'preview-me', fields: { title: 'Draft title' } });
    const { page, context } = await newPage(browser);
    await context.route('http://localhost:5173/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>site</title>' }));
    await openEntry(h, page, `/p/${project}/pages/article/${created.id}`);
    const [site] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Preview' }).click()]);
    await site.waitForLoadState();
    const url = new URL(site.url());
    expect(`${url.origin}${url.pathname}`).toBe('http://localhost:5173/article/preview-me');
    const key = url.searchParams.get('preview') ?? '';
    expect(key).toMatch(/^preview_/);
    expect(url.searchParams.get('locale')).toBe('en');
    // The key reads the draft through the public API.
    const read = await h.fetch('/api/v1/pages/preview-me', { headers: { 'x-preview-key': key } });
    expect(read.status).toBe(200);
    expect((await read.json()).data.fields.title).toBe('Draft title');
    await context.close();

    const other = await newPage(browser);
    await other.context.route('http://localhost:5173/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>site</title>' }));
    await openEntry(h, other.page, `/p/${project}/pages/article/${created.id}`, editorEmail);
    await other.page.getByRole('button', { name: 'Preview' }).click();
    const dialog = other.page.getByRole('dialog', { name: 'Preview' });
    await dialog.getByText('Your role (editor) cannot create keys').waitFor();
    expect(await seriousViolations(other.page)).toEqual([]);
    await shoot(other.page, 'versions-preview-key');
    await dialog.getByLabel('Preview key').fill(key);
    const [again] = await Promise.all([other.context.waitForEvent('page'), dialog.getByRole('button', { name: 'Use this key' }).click()]);
    await again.waitForLoadState();
    expect(new URL(again.url()).searchParams.get('preview')).toBe(key);
    await other.context.close();
  });

  it('shows the preview JSON of the public API when no template is configured', async () => {
    const [{ slug: plainProject }] = await plain.t.run('projects.list', {});
    const created = await plain.t.run('pages.create', { pageTypeSlug: 'article', name: 'Json preview', slug: 'json-preview', fields: { title: 'Only a draft' } });
    const { page, context } = await newPage(browser);
    await openEntry(plain, page, `/p/${plainProject}/pages/article/${created.id}`);
    await page.getByRole('button', { name: 'Preview' }).click();
    const dialog = page.getByRole('dialog', { name: 'Preview (JSON of the public API)' });
    const json = dialog.getByLabel('Preview JSON');
    await json.waitFor();
    const shown = JSON.parse(await json.innerText());
    expect(shown.data).toMatchObject({ slug: 'json-preview', fields: { title: 'Only a draft' } });
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'versions-preview-json');
    await context.close();
  });

  it('switches locale in a two-language project: writes French, and says where each value comes from', async () => {
    const terminal = { actor: { kind: 'terminal' as const }, project: 'intl' };
    const created = await h.t.cms.run('pages.create', { pageTypeSlug: 'article', name: 'Bilingual', slug: 'bilingual', fields: { title: 'Hello', body: 'English body', price: 3 } }, terminal);
    const { page, context } = await newPage(browser);
    await openEntry(h, page, `/p/intl/pages/article/${created.id}`);
    const switcher = page.getByLabel('Editing in');
    await switcher.selectOption('fr');
    const title = page.getByRole('textbox', { name: /^Title/ });
    await poll(() => title.inputValue()).toBe('');
    const source = (field: string) => page.locator(`[data-source="${field}"]`);
    expect(await source('title').innerText()).toContain('Fallback from en: readers in fr see “Hello”');
    expect(await source('body').innerText()).toContain('Fallback from en');
    expect(await source('price').innerText()).toContain('Shared by all locales');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'versions-locale');

    await title.fill('Bonjour');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await poll(async () => (await getPage(created.id, 'intl')).draftLocales?.fr).toEqual({ title: 'Bonjour' });
    expect(await source('title').innerText()).toContain('Own value in fr');
    const saved = await getPage(created.id, 'intl');
    expect(saved.draftContent).toEqual({ title: 'Hello', body: 'English body', price: 3 });
    expect(saved.draftLocales.fr).toEqual({ title: 'Bonjour' });
    // Back in English, the English title is there and is the locale's own.
    await switcher.selectOption('en');
    await poll(() => title.inputValue()).toBe('Hello');
    expect(await source('title').innerText()).toContain('Own value in en');
    await context.close();
  });
});
