import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSchemaFile } from '../../src/cli/schema-files.js';
import { createAdminHarness, type AdminHarness } from '../admin/support.js';
import { launchBrowser, newPage, seriousViolations, shoot, signIn } from './support.js';

// The schema builder (Settings → Schemas) in headless Chromium against the real server on a socket.
let h: AdminHarness;
let browser: Browser;
let project = '';
const developerEmail = 'dev-schemas@example.test';
const editorEmail = 'editor-schemas@example.test';

beforeAll(async () => {
  h = await createAdminHarness();
  [{ slug: project }] = await h.t.run('projects.list', {});
  await h.t.run('types.create', { kind: 'collections', definition: { slug: 'authors', name: 'Authors', fields: [{ name: 'name', type: 'text' }] } });
  await h.t.run('types.create', { kind: 'components', definition: { slug: 'hero', name: 'Hero', fields: [{ name: 'title', type: 'text' }] } });
  await h.t.run('types.create', { kind: 'pageTypes', definition: { slug: 'article', name: 'Articles', fields: [{ name: 'title', type: 'text' }] } });
  for (const n of [1, 2, 3]) await h.t.run('pages.create', { pageTypeSlug: 'article', name: `Article ${n}`, slug: `article-${n}`, fields: { title: `T${n}` } });
  await h.createUser('developer', { email: developerEmail });
  await h.createUser('editor', { email: editorEmail });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function openAs(email: string, path: string): Promise<Page> {
  const { page } = await newPage(browser);
  await page.goto(`${h.http.url}/admin${path}`);
  await signIn(page, email);
  return page;
}

const field = (page: Page, legend: string) => page.getByRole('group', { name: legend, exact: true });

async function addField(page: Page, type: string): Promise<void> {
  await page.getByLabel('New field’s type').selectOption(type);
  await page.getByRole('button', { name: 'Add field', exact: true }).click();
}

async function adminGet(path: string): Promise<{ status: number; body: any }> {
  const cookie = await h.signIn(developerEmail);
  const res = await h.call('GET', `/api/v1/admin${path}`, { cookie, project });
  return { status: res.status, body: await res.json() };
}

describe('the schema builder', { timeout: 180_000 }, () => {
  it('builds a collection with a repeater, a reference and a component picker, with the rules checked at the field as you type', async () => {
    const page = await openAs(developerEmail, `/p/${project}/settings/schemas`);
    await page.getByRole('heading', { name: 'Schemas', level: 1 }).waitFor();
    const notice = await page.locator('.sb-notice').innerText();
    expect(notice).toContain('the files in schemas/ are the source of truth');
    expect(notice).toContain('cms schema pull');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'schemas-list');

    await page.getByRole('link', { name: 'New collection' }).click();
    await page.getByRole('heading', { name: 'New collection' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Books');
    await page.getByLabel('Slug', { exact: true }).fill('books');

    await addField(page, 'text');
    await field(page, 'Field 1: (unnamed) (text)').getByLabel('Name', { exact: true }).fill('title');
    await field(page, 'Field 1: title (text)').getByLabel('Required').check();

    // A duplicate name: refused at that field before any save. A select without choices is no
    // problem (it takes any text).
    await addField(page, 'select');
    const select = field(page, 'Field 2: (unnamed) (select)');
    await select.getByLabel('Name', { exact: true }).fill('title');
    const dup = field(page, 'Field 2: title (select)');
    await expect.poll(() => dup.innerText()).toContain('duplicate field name "title" (also used by fields[0])');
    expect(await dup.innerText()).toContain('No choices: the field takes any text.');
    expect(await dup.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await field(page, 'Field 1: title (text)').innerText()).not.toContain('duplicate');
    expect(await page.locator('.sb-summary').innerText()).toContain('1 problem');
    await shoot(page, 'schemas-problems');
    await dup.getByLabel('Name', { exact: true }).fill('genre');
    const genre = field(page, 'Field 2: genre (select)');
    await genre.getByRole('button', { name: 'Add choice' }).click();
    await genre.getByLabel('Choice 1 label').fill('Fiction');
    await genre.getByLabel('Choice 1 value').fill('fiction');

    await addField(page, 'reference');
    const ref = field(page, 'Field 3: (unnamed) (reference)');
    await ref.getByLabel('Name', { exact: true }).fill('author');
    await expect.poll(() => field(page, 'Field 3: author (reference)').innerText()).toContain('required when referenceType is collectionItem');
    await field(page, 'Field 3: author (reference)').getByLabel('Collection').selectOption('authors');

    await addField(page, 'componentPicker');
    const picker = field(page, 'Field 4: (unnamed) (componentPicker)');
    await picker.getByLabel('Name', { exact: true }).fill('blocks');
    await field(page, 'Field 4: blocks (componentPicker)').getByLabel('Hero (hero)').check();

    await addField(page, 'repeater');
    await field(page, 'Field 5: (unnamed) (repeater)').getByLabel('Name', { exact: true }).first().fill('chapters');
    const rep = field(page, 'Field 5: chapters (repeater)');
    expect(await rep.innerText()).toContain('must have at least 1 item');
    await rep.getByRole('button', { name: 'Add a sub-field to chapters' }).click();
    await field(page, 'Field 1: (unnamed) (text)').getByLabel('Name', { exact: true }).fill('heading');
    await field(page, 'Field 1: heading (text)').getByLabel('Maximum length').fill('80');
    expect(await page.locator('.sb-summary').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'schemas-editor');

    await page.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('heading', { name: 'Edit collection: Books' }).waitFor();
    const { status, body } = await adminGet('/collection-types/books');
    expect(status).toBe(200);
    expect(body.data.name).toBe('Books');
    expect(body.data.fields).toEqual([
      { name: 'title', type: 'text', required: true },
      { name: 'genre', type: 'select', options: { choices: [{ label: 'Fiction', value: 'fiction' }] } },
      { name: 'author', type: 'reference', options: { collectionType: 'authors' } },
      { name: 'blocks', type: 'componentPicker', options: { allowedComponents: ['hero'] } },
      { name: 'chapters', type: 'repeater', options: { fields: [{ name: 'heading', type: 'text', options: { maxLength: 80 } }] } },
    ]);
    await page.close();
  });

  it('reorders fields by keyboard, announced, and shows the API\'s VALIDATION_FAILED at the field on save', async () => {
    const page = await openAs(developerEmail, `/p/${project}/settings/schemas/collections/books`);
    await page.getByRole('heading', { name: 'Edit collection: Books' }).waitFor();
    const handle = page.getByRole('button', { name: /^Reorder field title/ });
    await handle.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Moved field' }).innerText()).toBe('Moved field title to position 2 of 5.');
    // Focus stays on the moved field's handle: a second press moves it again.
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Moved field' }).innerText()).toBe('Moved field title to position 3 of 5.');
    await page.getByRole('button', { name: 'Move field chapters up' }).click();
    expect(await page.locator('.sb-form > .sb-fields > li > fieldset > .sb-field-head .sb-legend').allInnerTexts()).toEqual([
      'Field 1: genre (select)', 'Field 2: author (reference)', 'Field 3: title (text)', 'Field 4: chapters (repeater)', 'Field 5: blocks (componentPicker)',
    ]);
    // And by dragging a field's handle onto another field.
    // Tall enough that the source and the target are both on screen (a drag does not scroll).
    await page.setViewportSize({ width: 1280, height: 3200 });
    const drag = async (to: 'first' | 'last') => {
      await page.getByRole('button', { name: /^Reorder field blocks/ }).hover();
      await page.mouse.down();
      const target = (await page.locator('.sb-form > .sb-fields > li')[to]().boundingBox())!;
      await page.mouse.move(target.x + target.width / 2, target.y + 40, { steps: 8 });
      await page.mouse.up();
    };
    await drag('first');
    expect(await page.locator('.sb-form > .sb-fields > li > fieldset > .sb-field-head .sb-legend').allInnerTexts()).toEqual([
      'Field 1: blocks (componentPicker)', 'Field 2: genre (select)', 'Field 3: author (reference)', 'Field 4: title (text)', 'Field 5: chapters (repeater)',
    ]);
    await drag('last');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    const { body } = await adminGet('/collection-types/books');
    expect(body.data.fields.map((f: { name: string }) => f.name)).toEqual(['genre', 'author', 'title', 'chapters', 'blocks']);

    // Removing the only choice: the select takes any text, saved without a choice list.
    const genre = field(page, 'Field 1: genre (select)');
    await genre.getByRole('button', { name: 'Remove choice 1' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await adminGet('/collection-types/books')).body.data.fields[0].options?.choices).toBeUndefined();
    expect(await page.locator('.sb-summary').count()).toBe(0);
    await page.close();
  });

  it('offers "Localized" on a page type\'s own fields, not on a component\'s (the API refuses it there)', async () => {
    const page = await openAs(developerEmail, `/p/${project}/settings/schemas/page-types/article`);
    await page.getByRole('heading', { name: 'Edit page type: Articles' }).waitFor();
    expect(await field(page, 'Field 1: title (text)').getByLabel('Localized (a value per locale)').count()).toBe(1);
    await page.goto(`${h.http.url}/admin/p/${project}/settings/schemas/components/hero`);
    await page.getByRole('heading', { name: 'Edit component: Hero' }).waitFor();
    await field(page, 'Field 1: title (text)').getByLabel('Required').waitFor();
    expect(await field(page, 'Field 1: title (text)').getByLabel('Localized (a value per locale)').count()).toBe(0);
    await shoot(page, 'schemas-component');
    await page.close();
  });

  it('downloads a type as the same file cms schema pull writes', async () => {
    const page = await openAs(developerEmail, `/p/${project}/settings/schemas`);
    await page.getByRole('heading', { name: 'Schemas', level: 1 }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download collection books as collections/books.json' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('books.json');
    const downloaded = readFileSync((await download.path())!, 'utf8');
    const dir = mkdtempSync(join(tmpdir(), 'cms-schemas-'));
    try {
      const set = await h.t.run('schema.pull', {});
      const books = set.collections.find((d: { slug: string }) => d.slug === 'books')!;
      const pulled = readFileSync(writeSchemaFile(dir, 'collections', books), 'utf8');
      expect(downloaded).toBe(pulled);
      expect(downloaded.startsWith('{\n  "$schema": "../cms-schema.json",\n  "slug": "books",\n  "name": "Books",\n  "fields": [')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await page.close();
  });

  it('refuses to delete a type with content, saying how much, until forced', async () => {
    const page = await openAs(developerEmail, `/p/${project}/settings/schemas`);
    await page.getByRole('button', { name: 'Delete page type article' }).click();
    await page.getByRole('button', { name: 'Delete page type', exact: true }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.innerText()).toContain('Articles has 3 entries');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'schemas-delete-refused');
    expect((await adminGet('/page-types/article')).status).toBe(200);
    await page.getByRole('button', { name: 'Delete with its 3 entries' }).click();
    await expect.poll(async () => (await adminGet('/page-types/article')).status).toBe(404);
    await page.getByRole('heading', { name: 'Page types' }).waitFor();
    await expect.poll(() => page.getByText('No page types yet.').count()).toBe(1);
    await page.close();
  });

  it('is not open to an editor: the 403 explained, and no Schemas link', async () => {
    const page = await openAs(editorEmail, `/p/${project}/settings/schemas`);
    await page.getByRole('heading', { name: 'Schemas: not available to your role' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('Page types, collections and components are managed by developers, admins and owners.');
    expect(await page.getByRole('navigation').getByRole('link', { name: 'Schemas' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});
