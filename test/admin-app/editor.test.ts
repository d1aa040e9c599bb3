import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminHarness, type AdminHarness } from '../admin/support.js';
import { launchBrowser, newPage, seriousViolations, shoot, signIn } from './support.js';

// The entry editor of the admin app, driven in headless Chromium against the real server: a page
// type with every one of the 16 field types, created, refused, fixed, published and read back
// through the public API; cloned, autosaved and scheduled; read-only for a viewer.
let h: AdminHarness;
let browser: Browser;
let project = '';
let publicKey = '';
/** The page the first test creates. */
let pageId = '';
let adaId = '';
let graceId = '';
const editorEmail = 'editor@example.test';
const viewerEmail = 'viewer@example.test';

beforeAll(async () => {
  h = await createAdminHarness();
  [{ slug: project }] = await h.t.run('projects.list', {});
  await h.t.run('types.create', { kind: 'components', definition: { slug: 'quote', name: 'Quote', fields: [{ name: 'text', type: 'textarea', required: true }] } });
  await h.t.run('types.create', { kind: 'components', definition: { slug: 'cta', name: 'Call to action', fields: [{ name: 'label', type: 'text' }, { name: 'url', type: 'text' }] } });
  await h.t.run('types.create', { kind: 'collections', definition: { slug: 'people', name: 'People', fields: [{ name: 'bio', type: 'text' }] } });
  adaId = (await h.t.run('items.create', { collectionTypeSlug: 'people', name: 'Ada Lovelace', slug: 'ada', fields: { bio: 'Ada bio' } })).id as string;
  graceId = (await h.t.run('items.create', { collectionTypeSlug: 'people', name: 'Grace Hopper', slug: 'grace', fields: { bio: 'Grace bio' } })).id as string;
  await h.t.run('types.create', { kind: 'pageTypes', definition: { slug: 'showcase', name: 'Showcases', fields: [
    { name: 'title', label: 'Title', type: 'text', required: true, options: { minLength: 3, maxLength: 40, helpText: 'The page heading' } },
    { name: 'code', label: 'Code', type: 'text', options: { pattern: '^[A-Z]{3}$', patternMessage: 'Three capital letters' } },
    { name: 'intro', label: 'Intro', type: 'textarea', options: { placeholder: 'A few words' } },
    { name: 'body', label: 'Body', type: 'wysiwyg' },
    { name: 'hero', label: 'Hero image', type: 'image', options: { allowedMimeTypes: ['image/png'] } },
    { name: 'file', label: 'Attachment', type: 'media' },
    { name: 'count', label: 'Count', type: 'number', options: { min: 0, max: 10, step: 1 } },
    { name: 'featured', label: 'Featured', type: 'boolean' },
    { name: 'day', label: 'Day', type: 'date' },
    { name: 'at', label: 'Starts at', type: 'datetime' },
    { name: 'tint', label: 'Tint', type: 'color' },
    { name: 'meta', label: 'Meta', type: 'json' },
    { name: 'size', label: 'Size', type: 'select', options: { choices: [{ label: 'Small', value: 's' }, { label: 'Large', value: 'l' }] } },
    { name: 'mood', label: 'Mood', type: 'select' },
    { name: 'people', label: 'People', type: 'reference', options: { collectionType: 'people', multiple: true } },
    { name: 'blocks', label: 'Blocks', type: 'componentPicker', options: { allowedComponents: ['quote'], maxItems: 3 } },
    { name: 'cta', label: 'CTA', type: 'nestedComponent', options: { componentSlug: 'cta' } },
    { name: 'rows', label: 'Rows', type: 'repeater', options: { minItems: 0, maxItems: 4, fields: [{ name: 'caption', label: 'Caption', type: 'text', options: { maxLength: 5 } }] } },
  ] } });
  publicKey = (await h.t.run('keys.create', { type: 'public' })).key as string;
  await h.createUser('editor', { email: editorEmail });
  await h.createUser('viewer', { email: viewerEmail });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

const field = (page: Page, path: string) => page.locator(`[data-field="${path}"]`);
/** The id of the focused element (a string expression: this file is typed without the DOM). */
const activeId = (page: Page) => page.evaluate<string>("document.activeElement ? document.activeElement.id : ''");

describe('the entry editor', () => {
  it('creates a page with every field type, shows field errors, fixes them, publishes, and the public API serves it', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/p/${project}/pages/showcase`);
    await signIn(page, editorEmail);
    await page.getByRole('link', { name: 'New page' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 10_000 }).toBe('New page');
    // Every field has a labelled control, its help text and its required mark.
    for (const p of ['title', 'code', 'intro', 'body', 'hero', 'file', 'count', 'featured', 'day', 'at', 'tint', 'meta', 'size', 'mood', 'people', 'blocks', 'cta', 'rows']) {
      expect(await field(page, `fields.${p}`).count(), p).toBe(1);
    }
    expect(await field(page, 'fields.title').textContent()).toContain('The page heading');
    expect(await page.getByLabel(/^Title \*$/).getAttribute('required')).toBe('');
    expect(await field(page, 'fields.title').locator('.req').count()).toBe(1);

    await page.getByLabel('Name').fill('Showcase one');
    expect(await page.getByLabel('Slug').inputValue()).toBe('showcase-one');
    await page.getByLabel(/^Title \*$/).fill('ab');
    expect(await field(page, 'fields.title').locator('.counter').textContent()).toBe('2 / 40 (min 3)');
    await page.getByLabel('Code', { exact: true }).fill('abc');
    expect(await field(page, 'fields.code').textContent()).toContain('Three capital letters');
    await page.getByLabel('Intro', { exact: true }).fill('Hello there');
    expect(await page.getByLabel('Intro', { exact: true }).getAttribute('placeholder')).toBe('A few words');
    await page.getByLabel('Body', { exact: true }).fill('<p>Rich</p>');
    await page.getByLabel('Count', { exact: true }).fill('7');
    expect(await page.getByLabel('Count', { exact: true }).getAttribute('max')).toBe('10');
    await page.getByLabel('Featured', { exact: true }).check();
    await page.getByLabel('Day', { exact: true }).fill('2026-03-04');
    await page.getByLabel('Starts at', { exact: true }).fill('2026-03-04T10:30');
    expect(await field(page, 'fields.at').textContent()).toMatch(/Local time \(.+UTC[+−]\d\d:\d\d\)/);
    await page.getByLabel(/^Tint$/).fill('#ff8800');
    expect(await page.getByLabel('Tint: colour picker').inputValue()).toBe('#ff8800');
    await page.getByLabel('Meta', { exact: true }).fill('{bad');
    await expect.poll(() => field(page, 'fields.meta').textContent()).toContain('Not valid JSON');
    await page.getByLabel('Meta', { exact: true }).fill('{"a": [1, 2]}');
    await expect.poll(() => field(page, 'fields.meta').textContent()).not.toContain('Not valid JSON');
    await page.getByLabel('Size', { exact: true }).selectOption('l');
    // A select without choices takes any text.
    expect(await page.getByLabel('Mood', { exact: true }).getAttribute('type')).toBe('text');
    await page.getByLabel('Mood', { exact: true }).fill('quietly hopeful');
    // References: search as you type, pick with the keyboard, reorder with buttons.
    await page.getByRole('combobox', { name: 'People' }).fill('Grace');
    await expect.poll(() => page.getByRole('listbox', { name: 'Matching items of people' }).getByRole('option').count()).toBe(1);
    await page.keyboard.press('Enter');
    await page.getByRole('combobox', { name: 'People' }).fill('ada');
    await expect.poll(() => page.getByRole('listbox', { name: 'Matching items of people' }).getByRole('option', { name: /Ada Lovelace/ }).count()).toBe(1);
    await page.getByRole('listbox', { name: 'Matching items of people' }).getByRole('option', { name: /Ada Lovelace/ }).click();
    await page.getByRole('button', { name: 'Move reference 2 up' }).click();
    await expect.poll(() => field(page, 'fields.people').locator('.chip').first().textContent()).toContain('Ada Lovelace');
    // A component from the allowed list, the nested component, two repeater rows.
    await page.getByRole('button', { name: 'Add to Blocks' }).click();
    await field(page, 'fields.blocks[0].text').locator('textarea').fill('To be or not to be');
    await page.getByLabel('label', { exact: true }).fill('Buy now');
    await page.getByRole('button', { name: 'Add Rows row' }).click();
    await page.getByRole('button', { name: 'Add Rows row' }).click();
    await field(page, 'fields.rows[0].caption').locator('input').fill('one');
    await field(page, 'fields.rows[1].caption').locator('input').fill('far too long');

    await page.getByRole('button', { name: 'Create draft' }).click();
    // The API's VALIDATION_FAILED is shown at each field, inside the repeater too, focus on the first.
    await expect.poll(() => page.locator('.editor-summary li').count()).toBe(3);
    expect(await field(page, 'fields.title').locator('.field-error').textContent()).toMatch(/at least 3/);
    expect(await field(page, 'fields.code').locator('.field-error').count()).toBe(1);
    expect(await field(page, 'fields.rows[1].caption').locator('.field-error').textContent()).toMatch(/at most 5/);
    expect(await field(page, 'fields.rows[1].caption').locator('input').getAttribute('aria-invalid')).toBe('true');
    expect(await field(page, 'fields.rows[1].caption').locator('input').getAttribute('aria-describedby')).toContain('error');
    await expect.poll(() => activeId(page)).toBe('f-fields-title');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'editor-errors');

    await page.getByLabel(/^Title \*$/).fill('Showcase');
    await page.getByLabel('Code', { exact: true }).fill('ABC');
    await field(page, 'fields.rows[1].caption').locator('input').fill('two');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL(/\/pages\/showcase\/[0-9a-f-]{36}$/);
    pageId = page.url().split('/').pop()!;
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Showcase one');
    await expect.poll(() => page.getByLabel('Code', { exact: true }).inputValue()).toBe('ABC');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect.poll(() => page.locator('.editor-status').textContent()).toBe('Published.');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'editor');

    const res = await h.fetch('/api/v1/pages/showcase-one', { headers: { 'x-api-key': publicKey } });
    expect(res.status).toBe(200);
    const text = JSON.stringify(await res.json());
    for (const part of ['"title":"Showcase"', '"code":"ABC"', '"count":7', '"featured":true', '"day":"2026-03-04"', '"tint":"#ff8800"', '"meta":{"a":[1,2]}', '"size":"l"', '"mood":"quietly hopeful"', '"caption":"two"', '"label":"Buy now"', 'To be or not to be']) {
      expect(text).toContain(part);
    }
    const at = /"at":"([^"]+)"/.exec(text)?.[1] ?? '';
    expect(new Date(at).toISOString()).toBe(at);
    // The references in the order the buttons gave them (drafts, so the public API leaves them out).
    const stored = await h.t.run('pages.get', { ref: { id: pageId } });
    expect(stored.draftContent.people).toEqual([{ _ref: adaId, _type: 'collectionItem' }, { _ref: graceId, _type: 'collectionItem' }]);
    await context.close();
  });

  it('shows each empty required field at its place when publishing is refused (REQUIRED_FIELDS_MISSING), focus on the first', async () => {
    const draft = await h.t.run('pages.create', { pageTypeSlug: 'showcase', name: 'Half done', slug: 'half-done', fields: { blocks: [{ _type: 'quote' }] } });
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/p/${project}/pages/showcase/${draft.id}`);
    await signIn(page, editorEmail);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 10_000 }).toBe('Half done');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect.poll(() => page.locator('.editor-status').textContent()).toBe('Not published: 2 required fields are empty.');
    expect(await page.locator('.editor-summary li').count()).toBe(2);
    expect(await field(page, 'fields.title').locator('.field-error').textContent()).toMatch(/required/);
    expect(await field(page, 'fields.blocks[0].text').locator('.field-error').textContent()).toMatch(/required/);
    expect(await page.getByLabel(/^Title \*$/).getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => activeId(page)).toBe('f-fields-title');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'editor-publish-required');
    expect((await h.t.run('pages.get', { ref: { id: draft.id } })).status).toBe('draft');
    await context.close();
  });

  it('clones, autosaves while typing, schedules publish and unpublish in the local time zone and cancels each', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/p/${project}/pages/showcase/${pageId}`);
    await signIn(page, editorEmail);
    await page.getByRole('button', { name: 'Clone' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 10_000 }).toBe('Showcase one (copy)');
    await page.getByLabel('Intro', { exact: true }).fill('Typed, then autosaved');
    await expect.poll(() => page.locator('.autosave').textContent(), { timeout: 10_000 }).toMatch(/^Saved at /);
    const cloneId = page.url().split('/').pop()!;
    const clone = await h.t.run('pages.get', { ref: { id: cloneId } });
    expect(clone.slug).toBe('showcase-one-copy');
    expect(clone.draftContent.intro).toBe('Typed, then autosaved');
    expect(await page.locator('#schedule-zone').textContent()).toMatch(/In your time zone: .+UTC[+−]\d\d:\d\d/);
    await page.getByLabel('Publish at', { exact: true }).fill('2030-06-01T09:15');
    await page.getByRole('button', { name: 'Schedule publish' }).click();
    await expect.poll(() => page.locator('.editor-status').textContent()).toMatch(/^Scheduled to publish at /);
    const scheduled = await h.t.run('pages.get', { ref: { id: cloneId } });
    expect(new Date(scheduled.publishAt).getTime()).toBe(new Date('2030-06-01T09:15').getTime());
    await expect.poll(() => page.locator('.editor-head .badge').first().textContent()).toBe('scheduled');
    await page.getByLabel('Unpublish at', { exact: true }).fill('2030-06-01T09:15');
    await page.getByRole('button', { name: 'Schedule unpublish' }).click();
    await expect.poll(() => page.locator('.editor-status').textContent()).toBe('Not scheduled: unpublishAt must be after publishAt.');
    await page.getByLabel('Unpublish at', { exact: true }).fill('2030-07-01T18:30');
    await page.getByRole('button', { name: 'Schedule unpublish' }).click();
    await expect.poll(() => page.locator('.editor-status').textContent()).toMatch(/^Scheduled to unpublish at /);
    const both = await h.t.run('pages.get', { ref: { id: cloneId } });
    expect(new Date(both.unpublishAt).getTime()).toBe(new Date('2030-07-01T18:30').getTime());
    expect(new Date(both.publishAt).getTime()).toBe(new Date('2030-06-01T09:15').getTime());
    await expect.poll(() => page.locator('.facts time').nth(2).getAttribute('datetime')).toBe(both.unpublishAt);
    expect(await page.locator('.facts dt').allTextContents()).toContain('Unpublishes at');
    await page.getByRole('button', { name: 'Cancel scheduled publish' }).click();
    await expect.poll(() => page.locator('.editor-status').textContent()).toBe('Scheduled publish cancelled.');
    expect(await h.t.run('pages.get', { ref: { id: cloneId } })).toMatchObject({ publishAt: null, unpublishAt: both.unpublishAt });
    await page.getByRole('button', { name: 'Cancel scheduled unpublish' }).click();
    await expect.poll(() => page.locator('.editor-status').textContent()).toBe('Scheduled unpublish cancelled.');
    expect(await h.t.run('pages.get', { ref: { id: cloneId } })).toMatchObject({ publishAt: null, unpublishAt: null });
    expect(await page.getByRole('button', { name: 'Cancel scheduled unpublish' }).count()).toBe(0);
    await context.close();
  });

  it('says so when someone else saved meanwhile, keeping what was typed; a referenced item refuses deletion and lists who refers to it', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/p/${project}/pages/showcase/${pageId}`);
    await signIn(page, editorEmail);
    await expect.poll(() => page.getByLabel('Intro', { exact: true }).inputValue(), { timeout: 10_000 }).toBe('Hello there');
    const current = await h.t.run('pages.get', { ref: { id: pageId } });
    await h.t.run('pages.update', { ref: { id: pageId }, fields: { intro: 'Theirs' }, version: current.version });
    await page.getByLabel('Intro', { exact: true }).fill('Mine, typed meanwhile');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect.poll(() => page.locator('[data-conflict]').textContent()).toContain('Someone else saved this entry meanwhile');
    expect(await page.getByLabel('Intro', { exact: true }).inputValue()).toBe('Mine, typed meanwhile');
    expect((await h.t.run('pages.get', { ref: { id: pageId } })).draftContent.intro).toBe('Theirs');
    await context.close();

    const second = await newPage(browser);
    await second.page.goto(`${h.http.url}/admin/p/${project}/items/people/${adaId}`);
    await signIn(second.page, editorEmail);
    // By keyboard: the question takes the focus, Escape takes it back to Delete.
    const focused = () => second.page.evaluate<string>("document.activeElement ? (document.activeElement.textContent || '').trim() : ''");
    await second.page.getByRole('button', { name: 'Delete', exact: true }).focus();
    await second.page.keyboard.press('Enter');
    await expect.poll(focused).toBe('Confirm delete');
    await second.page.keyboard.press('Escape');
    await expect.poll(focused).toBe('Delete');
    expect(await second.page.getByRole('button', { name: 'Confirm delete' }).count()).toBe(0);
    await second.page.keyboard.press('Enter');
    await expect.poll(focused).toBe('Confirm delete');
    await second.page.keyboard.press('Enter');
    // Refused: the explanation takes the focus, in an editor's words (no API parameters).
    await expect.poll(() => second.page.locator('.refusal').textContent()).toContain('showcase-one');
    await expect.poll(() => second.page.evaluate<string>("document.activeElement ? document.activeElement.className : ''")).toContain('refusal');
    expect(await second.page.locator('.refusal').textContent()).toContain('2 entries refer to it. Remove those references first');
    expect(await second.page.locator('.refusal').textContent()).not.toContain('force');
    expect(await second.page.getByRole('button', { name: /Delete anyway/ }).count()).toBe(1);
    await shoot(second.page, 'editor-delete-refused');
    await second.page.getByRole('button', { name: 'Keep it' }).click();
    await expect.poll(focused).toBe('Delete');
    await second.context.close();
  });

  it('writes blog posts with the same editor, and creates a category from its list', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/p/${project}/blog/categories`);
    await signIn(page, editorEmail);
    await page.getByRole('link', { name: 'New category' }).click();
    await page.getByLabel('Name').fill('News');
    await page.getByRole('button', { name: 'Create category' }).click();
    await page.waitForURL(/\/blog\/categories\/[0-9a-f-]{36}$/);
    await page.goto(`${h.http.url}/admin/p/${project}/blog/posts`);
    await page.getByRole('link', { name: 'New post' }).click();
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Hello editor');
    expect(await page.getByLabel('Slug').inputValue()).toBe('hello-editor');
    await page.getByLabel('Summary').fill('A post from the browser');
    await page.getByRole('combobox', { name: 'Categories' }).fill('New');
    await page.getByRole('listbox', { name: 'Matching categories' }).getByRole('option', { name: /News/ }).click();
    await page.getByLabel('Meta title').fill('Hello from the editor');
    await expect.poll(() => page.locator('.serp-title').textContent()).toBe('Hello from the editor');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL(/\/blog\/posts\/[0-9a-f-]{36}$/);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect.poll(() => page.locator('.editor-status').textContent()).toBe('Published.');
    const res = await h.fetch('/api/v1/blog/posts/hello-editor', { headers: { 'x-api-key': publicKey } });
    expect(res.status).toBe(200);
    const text = JSON.stringify(await res.json());
    expect(text).toContain('A post from the browser');
    expect(text).toContain('"news"');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'editor-post');
    await context.close();
  });

  it('shows a viewer the same form read-only, with no write controls', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${h.http.url}/admin/p/${project}/pages/showcase/${pageId}`);
    await signIn(page, viewerEmail);
    await expect.poll(() => page.getByLabel(/^Title \*$/).inputValue(), { timeout: 10_000 }).not.toBe('');
    expect(await page.getByLabel(/^Title \*$/).getAttribute('readonly')).toBe('');
    for (const name of ['Save draft', 'Publish', 'Unpublish', 'Clone', 'Delete', 'Schedule publish', 'Schedule unpublish', 'Add Rows row', 'Add to Blocks']) {
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    }
    expect(await page.getByRole('combobox', { name: 'People' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${h.http.url}/admin/p/${project}/pages/showcase`);
    await expect.poll(() => page.locator('table.list tbody tr').count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: 'New page' }).count()).toBe(0);
    await context.close();
  });
});
