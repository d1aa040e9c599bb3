import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminHarness, type AdminHarness } from '../admin/support.js';
import { launchBrowser, newPage, seriousViolations, shoot, signIn } from './support.js';

// The media library (/admin/p/:project/media) and the media field of the entry editor, in headless
// Chromium against the real server on a socket.
let h: AdminHarness;
let browser: Browser;
let editorCookie = '';
const editorEmail = 'media-editor@example.test';
const viewerEmail = 'media-viewer@example.test';

const square = (r: number, g: number, b: number, size = 64) =>
  sharp({ create: { width: size, height: size, channels: 3, background: { r, g, b } } }).png().toBuffer();

let red: Buffer;
let blue: Buffer;
let green: Buffer;

beforeAll(async () => {
  h = await createAdminHarness();
  // Multipart uploads must come from the configured origin (the CSRF rule); `cms serve` follows
  // where it listens, this in-process server does the same here.
  h.t.cms.config.baseUrl = h.http.url;
  await h.t.run('types.create', { kind: 'pageTypes', definition: { slug: 'article', name: 'Articles', fields: [
    { name: 'title', type: 'text' },
    { name: 'cover', type: 'image', options: { maxFileSize: 2000 } },
    { name: 'attachment', type: 'media', options: { allowedMimeTypes: ['image/png', 'application/pdf'] } },
  ] } });
  await h.createUser('editor', { email: editorEmail });
  await h.createUser('viewer', { email: viewerEmail });
  editorCookie = await h.signIn(editorEmail);
  [red, blue, green] = await Promise.all([square(220, 30, 30), square(30, 60, 220), square(30, 180, 60)]);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function listMedia(query = ''): Promise<{ id: string; originalFilename: string; altText?: string; folder: string | null }[]> {
  const res = await h.call('GET', `/api/v1/admin/media?limit=100${query}`, { cookie: editorCookie });
  expect(res.status).toBe(200);
  return (await res.json()).data;
}

const dropScript = `(list) => {
  const dt = new DataTransfer();
  for (const f of list) {
    const bin = atob(f.b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    dt.items.add(new File([bytes], f.name, { type: f.type }));
  }
  const target = document.querySelector('.media-screen');
  if (!target) throw new Error('no media screen');
  for (const type of ['dragenter', 'dragover', 'drop']) {
    target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
  }
}`;

/** Drops files on the library with a real DragEvent whose DataTransfer holds Files built in the page. */
async function dropFiles(page: Page, files: { name: string; type: string; bytes: Buffer }[]): Promise<void> {
  // Browser code as text: the tests' tsconfig has no DOM types.
  const list = files.map((f) => ({ name: f.name, type: f.type, b64: f.bytes.toString('base64') }));
  await page.evaluate(`(${dropScript})(${JSON.stringify(list)})`);
}

const uploadRow = (page: Page, name: string) => page.getByTestId('upload').filter({ hasText: name });

describe('the media library', () => {
  it('uploads by drag and drop and by the file input, shows progress per file, dedupe, edits, moves, and refuses a delete while content uses the file', { timeout: 120_000 }, async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/p/default/media`);
    await signIn(page, editorEmail);
    await expect(page.getByRole('heading', { name: 'Media library' }).waitFor()).resolves.toBeUndefined();
    await page.getByText('No media yet').waitFor();
    await shoot(page, 'media-empty');

    // Two images dropped at once: one row each, each with its own progress bar, both finished.
    await dropFiles(page, [{ name: 'red.png', type: 'image/png', bytes: red }, { name: 'blue.png', type: 'image/png', bytes: blue }]);
    for (const name of ['red.png', 'blue.png']) {
      await uploadRow(page, name).getByText('Uploaded').waitFor();
      expect(await uploadRow(page, name).getByRole('progressbar', { name: `Upload of ${name}` }).getAttribute('value')).toBe('1');
    }
    const grid = page.getByRole('list', { name: 'Files: All files' });
    await grid.getByRole('button', { name: /red\.png/ }).waitFor();
    await grid.getByRole('button', { name: /blue\.png/ }).waitFor();
    expect((await listMedia()).map((m) => m.originalFilename).sort()).toEqual(['blue.png', 'red.png']);
    // Thumbnails come from the transform route, small and WebP.
    const src = await grid.getByRole('button', { name: /red\.png/ }).locator('img').getAttribute('src');
    expect(src).toMatch(/^\/api\/v1\/media\/default\/[0-9a-f]{64}\.png\?w=240&h=240&fit=cover&format=webp$/);
    await expect.poll(() => page.evaluate("[...document.querySelectorAll('.media-grid img')].map((img) => img.complete && img.naturalWidth)")).toEqual([240, 240]);

    // The same bytes again, through the keyboard-reachable button's file input: "already in the library".
    await page.locator('input[type=file]').setInputFiles({ name: 'red-again.png', mimeType: 'image/png', buffer: red });
    await uploadRow(page, 'red-again.png').getByText(/Already in the library/).waitFor();
    await grid.getByRole('button', { name: /red-again\.png/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'media-grid');

    // Edit name and alt text.
    await grid.getByRole('button', { name: /^red\.png/ }).click();
    await page.getByRole('dialog', { name: 'red.png' }).waitFor();
    // The dialog's title follows the file's name once saved.
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('File name').fill('Red square.png');
    await dialog.getByLabel('Alt text').fill('A red square');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Saved.').waitFor();
    const edited = (await listMedia()).find((m) => m.originalFilename === 'Red square.png');
    expect(edited).toMatchObject({ altText: 'A red square', folder: null });

    // Move it to a new folder.
    await dialog.getByLabel('Move to folder').selectOption('__new__');
    await dialog.getByLabel('New folder name').fill('Covers');
    await dialog.getByRole('button', { name: 'Move' }).click();
    await dialog.getByText('Moved to “Covers”.').waitFor();
    expect((await listMedia('&folder=Covers')).map((m) => m.id)).toEqual([edited!.id]);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'media-detail');

    // A page uses it: the delete is refused and names the page; "Delete anyway" deletes.
    await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Uses red', slug: 'uses-red', fields: { title: 'x', cover: edited!.id } });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Yes, delete' }).click();
    const refusal = dialog.getByRole('alert').filter({ hasText: 'Not deleted: content uses this file.' });
    await refusal.waitFor();
    await refusal.getByText('uses-red').waitFor();
    expect((await h.call('GET', `/api/v1/admin/media/${edited!.id}`, { cookie: editorCookie })).status).toBe(200);
    await shoot(page, 'media-refused');
    await refusal.getByRole('button', { name: 'Delete anyway' }).click();
    await page.getByText('Deleted “Red square.png”.').waitFor();
    expect(await dialog.isVisible()).toBe(false);
    expect((await h.call('GET', `/api/v1/admin/media/${edited!.id}`, { cookie: editorCookie })).status).toBe(404);

    // Folders: the folder bar opens one, search finds by file name.
    await page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: /Covers/ }).click();
    await page.getByText('This folder is empty').waitFor();
    await page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: 'All files' }).click();
    await page.getByLabel('Search by file name').fill('blue');
    await page.getByRole('list', { name: 'Files: All files' }).getByRole('button').first().waitFor();
    await expect.poll(() => page.getByRole('list', { name: 'Files: All files' }).getByRole('button').count()).toBe(1);
    await context.close();
  });

  it('lets the keyboard open a file and Escape close its dialog', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/p/default/media`);
    await signIn(page, editorEmail);
    const first = page.getByRole('list', { name: 'Files: All files' }).getByRole('button').first();
    await first.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await page.evaluate("document.activeElement === document.querySelector('.media-grid button')")).toBe(true);
    await context.close();
  });

  it('shows a viewer the files without upload, edit, move or delete controls', async () => {
    const { context, page } = await newPage(browser, 390);
    await page.goto(`${h.http.url}/admin/p/default/media`);
    await signIn(page, viewerEmail);
    const grid = page.getByRole('list', { name: 'Files: All files' });
    await grid.getByRole('button', { name: /blue\.png/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Upload files' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New folder' }).count()).toBe(0);
    expect(await page.locator('input[type=file]').count()).toBe(0);
    await grid.getByRole('button', { name: /blue\.png/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getByRole('button', { name: /Delete|Save|Move/ }).count()).toBe(0);
    expect(await dialog.getByRole('textbox').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'media-viewer');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await context.close();
  });
});

describe('the media field of the entry editor', () => {
  it('chooses an uploaded image from the library for an image field and saves its id', { timeout: 60_000 }, async () => {
    const upload = await h.t.run('media.upload', { data: new Uint8Array(green), filename: 'green.png' });
    const created = await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Green page', slug: 'green-page', fields: { title: 'g' } });
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/p/default/pages/article/${created.id}`);
    await signIn(page, editorEmail);
    await page.getByRole('button', { name: 'Choose from library: Cover' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose: Cover' });
    await picker.waitFor();
    await picker.getByLabel('Search by file name').fill('green');
    const choice = picker.getByRole('button', { name: /green\.png/ });
    await choice.waitFor();
    await expect.poll(() => picker.getByRole('button', { name: /\.png/ }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'media-picker');
    await choice.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.getByTestId('media-field-name').filter({ hasText: 'green.png' }).waitFor();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect.poll(async () => {
      const res = await h.call('GET', `/api/v1/admin/pages/${created.id}`, { cookie: editorCookie });
      const body = await res.json();
      return body.data?.draftContent?.cover ?? body.data?.fields?.cover ?? null;
    }, { timeout: 10_000 }).toBe(upload.id);
    await shoot(page, 'media-field');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await context.close();
  });

  it('refuses a wrong type or a too large file before uploading it', async () => {
    const created = await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Refusals', slug: 'refusals', fields: { title: 'r' } });
    const before = (await listMedia()).length;
    const { context, page } = await newPage(browser);
    const uploads: string[] = [];
    page.on('request', (r) => { if (r.url().includes('/media/upload')) uploads.push(r.url()); });
    await page.goto(`${h.http.url}/admin/p/default/pages/article/${created.id}`);
    await signIn(page, editorEmail);
    await page.getByRole('button', { name: 'Upload: cover', exact: true }).waitFor();
    const input = page.locator('input[type=file][aria-label="File to upload: cover"]');
    expect(await input.getAttribute('accept')).toBe('image/*');
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await page.getByRole('alert').filter({ hasText: 'Not uploaded: notes.txt is text/plain; this field allows image/*.' }).waitFor();
    await input.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: await sharp({ create: { width: 200, height: 200, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).png().toBuffer() });
    await page.getByRole('alert').filter({ hasText: /Not uploaded: big\.png is .*; this field allows at most 2\.0 KB\./ }).waitFor();
    expect(uploads).toEqual([]);
    expect((await listMedia()).length).toBe(before);
    await context.close();
  });

  it('shows files of other types in the picker disabled, with the reason', async () => {
    await h.t.run('media.upload', { data: new Uint8Array(Buffer.from('plain words')), filename: 'readme.txt' });
    const created = await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Attachments', slug: 'attachments', fields: { title: 'a' } });
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/p/default/pages/article/${created.id}`);
    await signIn(page, editorEmail);
    await page.getByRole('button', { name: 'Choose from library: attachment', exact: true }).click();
    const picker = page.getByRole('dialog', { name: 'Choose: attachment' });
    await picker.getByText('Allowed: image/png, application/pdf.').waitFor();
    const text = picker.getByRole('button', { name: /readme\.txt/ });
    await text.waitFor();
    expect(await text.isDisabled()).toBe(true);
    expect(await text.getAttribute('aria-describedby')).toBeTruthy();
    await picker.getByText('Cannot be used: text/plain is not allowed here').waitFor();
    expect(await picker.getByRole('button', { name: /green\.png/ }).isEnabled()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await context.close();
  });
});
