import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, shoot } from '../admin-app/support.js';
import { testDriver } from '../helpers/db.js';
import { createTestCms, type TestCms } from '../helpers/engine.js';
import { serveOverSocket, type HttpClient } from '../helpers/http.js';

/** `/api/docs` in Chromium: any key of the project shows the reference; a secret key never goes in a URL. */
describe(`/api/docs in a browser (${testDriver})`, () => {
  let t: TestCms;
  let http: HttpClient;
  let browser: Browser;
  const keys: Record<'public' | 'secret' | 'preview', string> = { public: '', secret: '', preview: '' };

  beforeAll(async () => {
    t = await createTestCms();
    await t.run('schema.push', {
      pageTypes: [{ definition: { slug: 'article', name: 'Article', fields: [{ name: 'title', type: 'text' }] } }],
      collections: [], components: [],
    });
    for (const type of ['public', 'secret', 'preview'] as const) keys[type] = (await t.run('keys.create', { type, name: type })).key;
    http = await serveOverSocket(t.cms);
    browser = await launchBrowser();
  });
  afterAll(async () => { await browser?.close(); await http?.close(); await t?.close(); });

  it.each(['secret', 'preview', 'public'] as const)('shows the reference for a %s key typed into the form, the key in a header only', async (type) => {
    const { context, page } = await newPage(browser);
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    await page.goto(`${http.url}/api/docs`);
    await page.getByLabel('API key').fill(keys[type]);
    await page.getByRole('button', { name: 'Show the reference' }).click();
    await page.getByRole('heading', { name: 'cms API', exact: true }).waitFor({ timeout: 20_000 });
    expect(await page.locator('#key-form').isHidden()).toBe(true);
    expect(urls.filter((u) => u.includes(keys[type]))).toEqual([]);
    if (type === 'secret') await shoot(page, 'api-docs-secret');
    await context.close();
  });

  it('tells a refused key under the form, with the server\'s message, and keeps the form', async () => {
    const { context, page } = await newPage(browser, 390);
    await page.goto(`${http.url}/api/docs`);
    await page.getByLabel('API key').fill('svc_sk_not-a-real-key');
    await page.keyboard.press('Enter');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^The reference could not be loaded: .*key/i);
    expect(await page.locator('#key-form').isVisible()).toBe(true);
    await shoot(page, 'api-docs-refused');
    await context.close();
  });

  it('reads a public key from ?api_key= for a link to share', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${http.url}/api/docs?api_key=${encodeURIComponent(keys.public)}`);
    await page.getByRole('heading', { name: 'cms API', exact: true }).waitFor({ timeout: 20_000 });
    await context.close();
  });
});
