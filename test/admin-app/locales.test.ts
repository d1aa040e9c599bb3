import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminHarness, type AdminHarness } from '../admin/support.js';
import { launchBrowser, newPage, seriousViolations, shoot, signIn } from './support.js';

// The Locales settings screen of the admin app (issue 13) in headless Chromium against the real
// server on a socket: admins manage the locales, every other member reads them.
let h: AdminHarness;
let browser: Browser;
let project = '';
let admin = { id: '', email: '' };
let editor = { id: '', email: '' };
let viewer = { id: '', email: '' };

async function openAs(email: string): Promise<{ page: Page; close(): Promise<void> }> {
  const { context, page } = await newPage(browser);
  await page.goto(`${h.http.url}/admin/p/${project}/settings/locales`);
  await page.waitForURL(/\/admin\/login/);
  await signIn(page, email);
  await page.waitForURL((u) => u.pathname.endsWith('/settings/locales'));
  await page.getByRole('list', { name: 'Locales, in order' }).waitFor();
  return { page, close: () => context.close() };
}

async function apiLocales(): Promise<Array<{ code: string; name: string; fallback: string | null; default: boolean }>> {
  const cookie = await h.signIn(admin.email);
  return (await (await h.call('GET', '/api/v1/admin/locales', { cookie, project })).json()).data;
}

beforeAll(async () => {
  h = await createAdminHarness();
  [{ slug: project }] = await h.t.run('projects.list', {});
  await h.t.run('types.create', { kind: 'pageTypes', definition: { slug: 'article', name: 'Articles', fields: [{ name: 'title', type: 'text', localized: true }] } });
  await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Hello', slug: 'hello', fields: { title: 'Hello' } });
  admin = await h.createUser('admin', { email: 'admin@example.test' });
  editor = await h.createUser('editor', { email: 'editor@example.test' });
  viewer = await h.createUser('viewer', { email: 'viewer@example.test' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe('Locales (admin)', () => {
  it('adds fr with a fallback, refuses a bad and a taken code at the field, renames, makes fr the default, removes a locale', async () => {
    const { page, close } = await openAs(admin.email);
    const list = page.getByRole('list', { name: 'Locales, in order' });
    expect(await list.getByRole('listitem').count()).toBe(1);
    expect(await list.getByRole('listitem').first().textContent()).toContain('default');
    // The default cannot be removed: the button is disabled, with the reason next to it.
    expect(await page.getByRole('button', { name: 'Remove English (en)' }).isDisabled()).toBe(true);
    expect(await page.getByText('The default locale cannot be removed').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'locales-one');

    // A bad code: the API's refusal at the code field.
    const code = page.getByLabel('Code', { exact: true });
    await code.fill('french!');
    await page.getByRole('button', { name: 'Add locale' }).click();
    await expect.poll(() => code.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('alert').textContent()).toMatch(/locale code/);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'locales-bad-code');

    // fr with fallback en.
    await code.fill('fr');
    await page.getByLabel('Fallback (optional)').selectOption('en');
    await page.getByRole('button', { name: 'Add locale' }).click();
    const fr = list.locator('li[data-locale="fr"]');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    expect(await fr.textContent()).toContain('French');
    expect(await fr.textContent()).toContain('(en), then the default');
    expect(await code.inputValue()).toBe('');
    expect(await apiLocales()).toMatchObject([{ code: 'en', default: true }, { code: 'fr', name: 'French', fallback: 'en', default: false }]);

    // A taken code: 409, shown at the code field.
    await code.fill('fr');
    await page.getByRole('button', { name: 'Add locale' }).click();
    await expect.poll(() => code.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('alert').textContent()).toMatch(/already exists/);
    await code.fill('de');
    await page.getByRole('button', { name: 'Add locale' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(3);

    // Rename fr and drop its fallback.
    await page.getByRole('button', { name: 'Edit French (fr)' }).click();
    const form = page.getByRole('form', { name: 'Edit French (fr)' });
    await form.getByLabel('Name').fill('Français');
    await form.getByLabel('Fallback').selectOption('');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Edit Français (fr)' }).count()).toBe(1);
    expect((await apiLocales()).find((l) => l.code === 'fr')).toMatchObject({ name: 'Français', fallback: null });
    await shoot(page, 'locales-three');

    // Make fr the default: the confirmation explains what it does.
    await page.getByRole('button', { name: 'Make Français (fr) the default' }).click();
    const ask = page.getByRole('group', { name: 'Make Français (fr) the default' });
    const question = await ask.textContent();
    expect(question).toMatch(/without \?locale=/);
    expect(question).toMatch(/swap places: nothing is lost/);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'locales-make-default');
    await ask.getByRole('button', { name: 'Make fr the default' }).click();
    await expect.poll(async () => (await apiLocales()).find((l) => l.default)?.code).toBe('fr');
    await expect.poll(() => page.getByRole('button', { name: 'Remove Français (fr)' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Remove English (en)' }).isDisabled()).toBe(false);

    // Remove de after a confirmation that warns about its values.
    await page.getByRole('button', { name: 'Remove German (de)' }).click();
    const confirm = page.getByRole('group', { name: /Remove German \(de\)\?.*Every value written in de/ });
    expect(await confirm.count()).toBe(1);
    await confirm.getByRole('button', { name: 'Remove de' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    expect((await apiLocales()).map((l) => l.code)).toEqual(['en', 'fr']);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'locales-admin');
    await close();
  });
});

describe('Locales (other members)', () => {
  for (const who of ['viewer', 'editor'] as const) {
    it(`shows the ${who} the list without write controls`, async () => {
      const { page, close } = await openAs(who === 'viewer' ? viewer.email : editor.email);
      const list = page.getByRole('list', { name: 'Locales, in order' });
      await expect.poll(() => list.getByRole('listitem').count()).toBeGreaterThan(1);
      expect(await page.getByText(`You are ${who === 'editor' ? 'an' : 'a'} ${who} of this project`).count()).toBe(1);
      expect(await page.getByRole('button').filter({ hasText: /^(Edit|Remove|Make default|Add locale)$/ }).count()).toBe(0);
      expect(await page.getByRole('navigation').getByRole('link', { name: 'Locales' }).count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      if (who === 'viewer') await shoot(page, 'locales-viewer');
      await close();
    });
  }
});
