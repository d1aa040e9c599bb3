import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminHarness, type AdminHarness } from '../admin/support.js';
import { fakeImportConfig } from '../fakes/buttercms/account.js';
import { startFakeButter, type FakeButter } from '../fakes/buttercms/server.js';
import { launchBrowser, newPage, seriousViolations, shoot, signIn } from './support.js';

// The Migrations screen of the admin app (settings/migrations) in headless Chromium, against the real
// server on a socket, migrating from the project's fake ButterCMS.
let h: AdminHarness;
let butter: FakeButter;
let slowButter: FakeButter;
let browser: Browser;
let project = '';
let developerCookie = '';
const developerEmail = 'dev-migrations@example.test';
const editorEmail = 'editor-migrations@example.test';

beforeAll(async () => {
  h = await createAdminHarness();
  [{ slug: project }] = await h.t.run('projects.list', {});
  butter = await startFakeButter();
  slowButter = await startFakeButter({ mode: 'slow', delayMs: 400 });
  await h.createUser('developer', { email: developerEmail });
  await h.createUser('editor', { email: editorEmail });
  developerCookie = await h.signIn(developerEmail);
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await butter?.close();
  await slowButter?.close();
  await h?.close();
});

const screenUrl = () => `${h.http.url}/admin/p/${project}/settings/migrations`;

async function openAs(email: string): Promise<Page> {
  const { page } = await newPage(browser);
  await page.goto(`${h.http.url}/admin/`);
  await signIn(page, email);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await page.goto(screenUrl());
  return page;
}

/** Fills the New migration form for this fake account and submits it. */
async function startMigration(page: Page, source: FakeButter, mode: 'Dry run' | 'Full' | 'Schema only'): Promise<void> {
  await page.getByRole('link', { name: 'New migration' }).click();
  await page.getByRole('heading', { name: 'New migration from ButterCMS' }).waitFor();
  await page.getByRole('radio', { name: new RegExp(`^${mode}`) }).check();
  await page.getByLabel('ButterCMS API token').fill(source.token);
  await page.getByLabel('API URL (optional)').fill(source.url);
  await page.getByLabel('Page types to read').fill(fakeImportConfig.pageTypes.join(', '));
  await page.getByLabel('Collections to read').fill(fakeImportConfig.collections.join('\n'));
  await page.getByRole('button', { name: 'Start migration' }).click();
}

const status = (page: Page) => page.locator('.mig-detail .screen-head .mig-status');

async function migrationIdOf(page: Page): Promise<string> {
  await page.waitForURL(/\/settings\/migrations\/[0-9a-f-]{36}$/);
  return page.url().split('/').at(-1)!;
}

async function apiTotal(path: string): Promise<number> {
  const res = await h.call('GET', path, { cookie: developerCookie });
  expect(res.status).toBe(200);
  return (await res.json()).pagination.total as number;
}

describe('the Migrations screen', () => {
  it('runs a dry run from the browser and shows its report as tables, never the token', async () => {
    const page = await openAs(developerEmail);
    await page.getByRole('heading', { name: 'Migrations from ButterCMS' }).waitFor();
    await page.getByText('No migrations yet').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'migrations-empty');

    // The form: an empty token is refused at the field, before any request.
    await page.getByRole('link', { name: 'New migration' }).click();
    await page.getByRole('button', { name: 'Start migration' }).click();
    await page.getByText('Enter the ButterCMS read token.').waitFor();
    expect(await page.getByLabel('ButterCMS API token').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('ButterCMS API token').getAttribute('type')).toBe('password');
    // A bad URL: the server's message, at the field.
    await page.getByLabel('ButterCMS API token').fill(butter.token);
    await page.getByLabel('API URL (optional)').fill('ftp://example.test');
    await page.getByRole('button', { name: 'Start migration' }).click();
    await page.getByText('must be an http(s) URL, like https://api.buttercms.com/v2').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'migrations-form');
    await page.getByRole('link', { name: 'Cancel' }).click();

    await startMigration(page, butter, 'Dry run');
    const id = await migrationIdOf(page);
    await page.getByRole('heading', { name: 'Dry-run report' }).waitFor({ timeout: 60_000 });
    expect(await status(page).textContent()).toBe('Completed');
    expect(await page.getByRole('progressbar', { name: 'Dry run migration progress' }).getAttribute('value')).toBe('100');

    // The report's schema table names every configured type, and the counts match the account.
    const types = page.getByRole('table', { name: /Types the migration would create/ });
    // (collection keys become kebab-case slugs)
    for (const slug of [...fakeImportConfig.pageTypes, ...fakeImportConfig.collections.map((c) => c.replaceAll('_', '-'))]) {
      await expect(types.getByRole('rowheader', { name: slug, exact: true }).count()).resolves.toBe(1);
    }
    const perCollection = page.getByRole('table', { name: 'Items per collection' });
    const products = butter.account.collections.products!.length;
    expect(await perCollection.getByRole('row', { name: `products ${products}` }).count()).toBe(1);
    // Nothing was written.
    const none = await h.call('GET', '/api/v1/admin/collection-items?collection=products&limit=1', { cookie: developerCookie });
    expect(none.status).toBe(404);

    // The log, filtered by level.
    await page.getByText('Dry run complete: nothing was written').waitFor();
    await page.getByLabel('Level').selectOption('warning');
    const lines = page.getByRole('list', { name: 'Log lines: warning' }).getByRole('listitem');
    await lines.first().waitFor();
    const levels = await lines.locator('.mig-level').allTextContents();
    expect(levels.length).toBeGreaterThan(0);
    expect(new Set(levels)).toEqual(new Set(['Warning']));
    await page.getByLabel('Level').selectOption('');

    // The token stays on the server: not in the page, not in the list.
    expect(await page.content()).not.toContain(butter.token);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'migrations-dry-run');
    await page.getByRole('link', { name: '← All migrations' }).click();
    await page.getByRole('link', { name: /Dry run migration created/ }).waitFor();
    expect(await page.content()).not.toContain(butter.token);
    expect(await page.getByRole('row').count()).toBe(2);
    expect(id).toMatch(/[0-9a-f-]{36}/);
    await page.context().close();
  }, 120_000);

  it('follows a full migration to done, and its content is there through the API', async () => {
    const page = await openAs(developerEmail);
    await startMigration(page, butter, 'Full');
    const id = await migrationIdOf(page);
    const bar = page.getByRole('progressbar', { name: 'Full migration progress' });
    await bar.waitFor();
    await page.getByText('Completed.', { exact: true }).waitFor({ timeout: 90_000 });
    expect(await status(page).textContent()).toBe('Completed');
    expect(await bar.getAttribute('value')).toBe('100');
    expect(await page.locator('.mig-phase').first().textContent()).toBe('Done');
    // The navigation learns the new types without a reload.
    await page.locator('.sidenav').getByRole('link', { name: /^Products/ }).waitFor();
    // The counts table shows what was written.
    const items = Object.values(butter.account.collections).reduce((n, list) => n + list.length, 0);
    expect(await page.getByRole('table', { name: 'What this migration wrote and read' }).getByRole('row', { name: `Collection items ${items}` }).count()).toBe(1);
    expect(await apiTotal('/api/v1/admin/collection-items?collection=products&limit=1')).toBe(butter.account.collections.products!.length);
    const landing = butter.account.pages.filter((p) => p.page_type === 'landing-page').length;
    expect(await apiTotal('/api/v1/admin/pages?pageType=landing-page&limit=1')).toBe(landing);
    const record = (await (await h.call('GET', `/api/v1/admin/migrations/${id}`, { cookie: developerCookie })).json()).data;
    expect(record.status).toBe('completed');
    expect(await page.content()).not.toContain(butter.token);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'migrations-full');
    await page.context().close();
  }, 150_000);

  it('pauses a running migration, then deletes it (the record and its stored token) after a confirmation', async () => {
    const page = await openAs(developerEmail);
    await startMigration(page, slowButter, 'Full');
    const id = await migrationIdOf(page);
    const pause = page.getByRole('button', { name: 'Pause' });
    await pause.waitFor();
    // Running: delete is refused, and says why.
    expect(await page.getByRole('button', { name: 'Delete…' }).isDisabled()).toBe(true);
    await page.getByText('A running migration cannot be deleted').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'migrations-running');
    await pause.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Paused. A paused migration cannot be resumed').waitFor({ timeout: 60_000 });
    expect(await status(page).textContent()).toBe('Paused');
    expect(await page.locator('.mig-live .mig-phase').textContent()).toMatch(/^Stopped: /);
    await page.getByText(/Pause requested by/).waitFor();

    // Delete, with a confirmation; cancelling first keeps it.
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    const confirm = page.getByRole('button', { name: 'Delete migration' });
    await confirm.waitFor();
    expect(await page.locator(':focus').textContent()).toBe('Delete migration');
    await shoot(page, 'migrations-confirm-delete');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Migrations from ButterCMS' }).waitFor();
    expect((await h.call('GET', `/api/v1/admin/migrations/${id}`, { cookie: developerCookie })).status).toBe(404);
    const listed = (await (await h.call('GET', '/api/v1/admin/migrations', { cookie: developerCookie })).json()).data as Array<{ id: string }>;
    expect(listed.map((m) => m.id)).not.toContain(id);
    // The list, with the migrations left.
    await page.getByRole('link', { name: /Full migration created/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'migrations-list');

    // A migration that is gone: said so.
    await page.goto(`${screenUrl()}/${id}`);
    await page.getByText('Migration not found').waitFor();
    await page.context().close();
  }, 150_000);

  it('is not available to an editor, who is told why', async () => {
    const page = await openAs(editorEmail);
    await page.getByRole('heading', { name: 'Migrations: not available to your role' }).waitFor();
    await page.getByText('Migrations are run by developers, admins and owners.').waitFor();
    expect(await page.getByRole('link', { name: 'Migrations' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  }, 60_000);
});
