import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminHarness, type AdminHarness } from '../admin/support.js';
import { launchBrowser, newPage, seriousViolations, shoot, signIn } from './support.js';

// The last pieces of the entry editor (issue 14) in headless Chromium against the real server: the
// wysiwyg's image button choosing from the media library, a list of 10,000 pages of one type, the
// browser's Back with unsaved changes, and a reference to a member. With UPDATE_SCREENSHOTS=1 it
// also writes the README's screenshot, docs/images/admin-editor.png.
let h: AdminHarness;
let browser: Browser;
let project = '';
let pageId = '';
let mediaFile = '';
let adminCookie = '';
const editorEmail = 'polish-editor@example.test';
const adminEmail = 'polish-admin@example.test';
const many = 10_000;

beforeAll(async () => {
  h = await createAdminHarness();
  h.t.cms.config.baseUrl = h.http.url;
  [{ slug: project }] = await h.t.run('projects.list', {});
  await h.t.run('types.create', { kind: 'pageTypes', definition: { slug: 'article', name: 'Articles', fields: [
    { name: 'title', label: 'Title', type: 'text' },
    { name: 'body', label: 'Body', type: 'wysiwyg' },
    { name: 'owner', label: 'Owner', type: 'reference', options: { referenceType: 'user' } },
  ] } });
  await h.t.run('types.create', { kind: 'pageTypes', definition: { slug: 'bulk', name: 'Bulk pages', fields: [{ name: 'title', type: 'text' }] } });
  pageId = (await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Pictured', slug: 'pictured', fields: { title: 'Pictured', body: '<p>Before the picture.</p>' } })).id as string;
  const png = await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 40, g: 120, b: 200 } } }).png().toBuffer();
  const media = await h.t.run('media.upload', { data: new Uint8Array(png), filename: 'harbour.png' });
  await h.t.run('media.update', { id: media.id, altText: 'A blue harbour' });
  mediaFile = media.filename as string;
  await h.createUser('editor', { email: editorEmail });
  await h.createUser('admin', { email: adminEmail });
  adminCookie = await h.signIn(adminEmail);
  // 10,000 pages of one type, seeded with one statement (the engine's writes, one transaction each,
  // would take minutes); every 10th is published.
  const p = await h.t.cms.resolveProject(h.t.config.project);
  await h.t.cms.db.execute(sql`
    insert into pages (project_id, page_type_id, status, name, slug, draft_content, published_content, seo, published_seo, published_at, created_at, updated_at)
    select ${p.id}, (select id from page_types where slug = 'bulk' and project_id = ${p.id}),
      case when i % 10 = 0 then 'published' else 'draft' end, 'Bulk page ' || i, 'bulk-' || i, c,
      case when i % 10 = 0 then c end, '{}', case when i % 10 = 0 then '{}'::jsonb end,
      case when i % 10 = 0 then at end, at, at
    from generate_series(1, ${many}) as i,
      lateral (select jsonb_build_object('title', 'Bulk ' || i) as c, timestamptz '2026-01-01' + i * interval '1 minute' as at) as x`);
  await h.t.cms.db.execute(sql`analyze pages`);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function stored(id: string): Promise<Record<string, unknown>> {
  const res = await h.call('GET', `/api/v1/admin/pages/${id}`, { cookie: adminCookie, project });
  expect(res.status).toBe(200);
  return (await res.json()).data.draftContent;
}

describe('the entry editor, finished', () => {
  it('inserts an image of the media library into a wysiwyg field, with its same-origin address and alt text', { timeout: 60_000 }, async () => {
    const { context, page } = await newPage(browser);
    page.setDefaultTimeout(10_000);
    await page.goto(`${h.http.url}/admin/p/${project}/pages/article/${pageId}`);
    await signIn(page, editorEmail);
    const body = page.getByRole('textbox', { name: 'Body', exact: true });
    await body.waitFor();
    await body.click();
    await page.keyboard.press('End');
    await page.getByRole('group', { name: 'Text formatting' }).getByRole('button', { name: /image/i }).click();
    await page.getByRole('button', { name: 'Choose from the media library' }).click();
    const picker = page.getByRole('dialog', { name: 'Insert an image: Body' });
    await picker.getByRole('button', { name: /harbour\.png/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'polish-image-picker');
    await picker.getByRole('button', { name: /harbour\.png/ }).click();
    await expect.poll(() => picker.count()).toBe(0);
    const src = `/api/v1/media/${project}/${mediaFile}`;
    await expect.poll(() => body.locator('img').getAttribute('src')).toBe(src);
    // The image shows (the CSP allows same-origin images only).
    await expect.poll(() => body.locator('img').evaluate((img: any) => img.complete && img.naturalWidth)).toBe(96);
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      await page.setViewportSize({ width: 1280, height: 800 });
      // A palette PNG keeps the file small (the UI has few colours).
      const shot = await page.screenshot();
      await sharp(shot).png({ palette: true, compressionLevel: 9, effort: 10 }).toFile(join(import.meta.dirname, '../../docs/images/admin-editor.png'));
    }
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect.poll(async () => String((await stored(pageId)).body)).toContain(`<img src="${src}" alt="A blue harbour">`);
    expect(String((await stored(pageId)).body)).toMatch(/^<p>Before the picture\./);
    await context.close();
  });

  it(`opens, pages, searches and filters a list of ${many.toLocaleString('en')} pages of one type`, { timeout: 90_000 }, async () => {
    const { context, page } = await newPage(browser);
    page.setDefaultTimeout(10_000);
    await page.goto(`${h.http.url}/admin/`);
    await signIn(page, editorEmail);
    const nav = page.getByRole('navigation', { name: 'Content' });
    await expect.poll(() => nav.getByRole('link', { name: /^Bulk pages/ }).textContent(), { timeout: 15_000 }).toBe(`Bulk pages${many}`);
    await nav.getByRole('link', { name: /^Bulk pages/ }).click();
    const rows = page.locator('table.list tbody tr');
    await expect.poll(() => page.getByText(/^Page 1 of \d+$/).textContent()).toBe(`Page 1 of ${many / 20}`);
    await expect.poll(() => rows.count()).toBe(20);
    expect(await page.getByText('10,000 entries', { exact: true }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'polish-list-10000');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByText(/^Page 2 of \d+$/).count()).toBe(1);
    await expect.poll(() => rows.count()).toBe(20);
    await page.getByLabel('Search').fill('bulk-9876');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Bulk page 9876');
    await page.getByLabel('Search').fill('Bulk page 777');
    // 777 and 7770–7779.
    await expect.poll(() => rows.count()).toBe(11);
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Status').selectOption('published');
    await expect.poll(() => page.getByText(/^Page 1 of \d+$/).textContent()).toBe(`Page 1 of ${many / 10 / 20}`);
    await expect.poll(() => rows.count()).toBe(20);
    expect(await rows.allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('published')]));
    await page.getByLabel('Status').selectOption('draft');
    await expect.poll(() => page.getByText(/^Page 1 of \d+$/).textContent()).toBe(`Page 1 of ${(many * 9) / 10 / 20}`);
    await context.close();
  });

  it('asks before Back leaves unsaved changes, and stays with the address restored', { timeout: 60_000 }, async () => {
    const { context, page } = await newPage(browser);
    page.setDefaultTimeout(10_000);
    await page.goto(`${h.http.url}/admin/p/${project}/pages/article`);
    await signIn(page, editorEmail);
    await page.getByRole('link', { name: 'Pictured' }).click();
    const title = page.getByLabel('Title', { exact: true });
    await title.waitFor();
    const editorUrl = page.url();
    await title.fill('Changed, not saved');
    const asked: string[] = [];
    let answer = false;
    page.on('dialog', (d) => { asked.push(d.message()); void (answer ? d.accept() : d.dismiss()); });
    await page.goBack();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toBe('You have unsaved changes. Leave without saving?');
    await expect.poll(() => page.url()).toBe(editorUrl);
    expect(await title.inputValue()).toBe('Changed, not saved');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Pictured');
    // Asked again, and this time leaving.
    answer = true;
    await page.goBack();
    await expect.poll(() => asked.length).toBe(2);
    await expect.poll(() => page.url()).toBe(`${h.http.url}/admin/p/${project}/pages/article`);
    await page.getByRole('link', { name: 'Pictured' }).waitFor();
    expect(String((await stored(pageId)).title)).toBe('Pictured');
    await context.close();
  });

  it('chooses a member in a user reference field, stores it and shows the name again', { timeout: 60_000 }, async () => {
    const { context, page } = await newPage(browser);
    page.setDefaultTimeout(10_000);
    // An editor picks members through the member directory (members.list is an admin's).
    const grace = await h.t.cms.run('users.create', { email: 'grace@example.test', password: 'correct horse battery staple', role: 'editor', name: 'Grace Hopper' }, { actor: { kind: 'terminal' } });
    await page.goto(`${h.http.url}/admin/p/${project}/pages/article/${pageId}`);
    await signIn(page, editorEmail);
    const owner = page.getByRole('combobox', { name: 'Owner' });
    await owner.fill('grace');
    await page.getByRole('option', { name: /Grace Hopper/ }).click();
    const chips = page.getByRole('list', { name: 'Chosen for Owner' });
    await expect.poll(() => chips.textContent()).toContain('Grace Hopper');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'polish-user-ref');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect.poll(async () => (await stored(pageId)).owner).toEqual({ _ref: (grace as { id: string }).id, _type: 'user' });
    await page.reload();
    await expect.poll(() => chips.textContent()).toContain('Grace Hopper');
    await context.close();
  });

  it('edits a blog term with no serious accessibility problems', { timeout: 60_000 }, async () => {
    const { context, page } = await newPage(browser);
    page.setDefaultTimeout(10_000);
    await page.goto(`${h.http.url}/admin/p/${project}/blog/tags`);
    await signIn(page, editorEmail);
    await page.getByRole('link', { name: 'New tag' }).click();
    await page.getByLabel('Name').fill('A tag with a rather long name that goes on and on for a while');
    await page.getByRole('button', { name: 'Create tag' }).click();
    await page.waitForURL(/\/blog\/tags\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('A tag with a rather long name that goes on and on for a while');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'polish-term');
    await context.close();
  });
});
