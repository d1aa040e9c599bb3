import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminHarness, type AdminHarness } from '../admin/support.js';
import { launchBrowser, newPage, seriousViolations, shoot, signIn } from './support.js';

// The wysiwyg field of the entry editor in headless Chromium against the real server: typing, the
// toolbar by keyboard, hostile and Word pastes (synthetic paste events), saving, and the stored HTML
// read back through the admin API; read-only for a viewer.
let h: AdminHarness;
let browser: Browser;
let project = '';
let pageId = '';
const editorEmail = 'editor@example.test';
const viewerEmail = 'viewer@example.test';

beforeAll(async () => {
  h = await createAdminHarness();
  [{ slug: project }] = await h.t.run('projects.list', {});
  await h.t.run('types.create', { kind: 'pageTypes', definition: { slug: 'article', name: 'Articles', fields: [
    { name: 'title', label: 'Title', type: 'text' },
    { name: 'body', label: 'Body', type: 'wysiwyg' },
  ] } });
  const created = await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Rich one', slug: 'rich-one',
    fields: { title: 'Rich', body: '<p class="lead">Stored <span class="note">kept</span> text</p>' } });
  pageId = created.id as string;
  await h.createUser('editor', { email: editorEmail });
  await h.createUser('viewer', { email: viewerEmail });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

const body = (page: Page) => page.getByRole('textbox', { name: 'Body', exact: true });
const toolbar = (page: Page) => page.getByRole('group', { name: 'Text formatting' });
// (Browser code reaches the DOM through `globalThis as any`: this file is type-checked without the DOM library.)
/** The accessible name of the focused element: its aria-label, or its <label for>'s text. */
const activeLabel = (page: Page) => page.evaluate((): string => {
  const doc = (globalThis as any).document;
  const el = doc.activeElement;
  return el?.getAttribute('aria-label') ?? (el?.id ? doc.querySelector(`label[for="${el.id}"]`)?.textContent : '') ?? '';
});

/** Fires a paste of this HTML at the editor, as the browser does for a real paste. */
async function paste(page: Page, html: string): Promise<void> {
  await body(page).evaluate((el: any, data: string) => {
    const g = globalThis as any;
    const dt = new g.DataTransfer();
    dt.setData('text/html', data);
    dt.setData('text/plain', data.replace(/<[^>]*>/g, ''));
    el.dispatchEvent(new g.ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, html);
}

async function storedBody(): Promise<string> {
  const cookie = await h.signIn(editorEmail);
  const res = await h.call('GET', `/api/v1/admin/pages/${pageId}`, { cookie, project });
  expect(res.status).toBe(200);
  return (await res.json()).data.draftContent.body as string;
}

const word = `<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style>p.MsoNormal{margin:0}</style></head><body>
<!--StartFragment--><h2 style='mso-style-name:"Heading 2"'>From Word<o:p></o:p></h2>
<p class=MsoNormal style='mso-add-space:auto'><b>Bold bit</b> and <i>italic bit</i><o:p></o:p></p>
<p class=MsoListParagraphCxSpFirst style='mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'>·<span>&nbsp;&nbsp;</span></span><![endif]>Word item one<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'>·<span>&nbsp;&nbsp;</span></span><![endif]>Word item two<o:p></o:p></p>
<table class=MsoTableGrid><tr><td><p class=MsoNormal>Cell text</p></td></tr></table><!--EndFragment--></body></html>`;

describe('the wysiwyg field', () => {
  it('edits with the keyboard and toolbar, cleans hostile and Word pastes, and saves clean structured HTML', async () => {
    const { context, page } = await newPage(browser);
    page.setDefaultTimeout(10_000);
    const dialogs: string[] = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
    // Nothing throws; Chrome reports (and blocks, under the CSP) the hostile paste's inline handler and
    // Word's inline styles while the clean-up parses the pasted HTML: those reports are expected.
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error' && !/^Failed to load resource|^(Applying inline style|Executing inline event handler) violates .*has been blocked/.test(m.text())) errors.push(m.text()); });
    await page.goto(`${h.http.url}/admin/p/${project}/pages/article/${pageId}`);
    await signIn(page, editorEmail);
    // The stored HTML loads with its allowlisted class attributes.
    await expect.poll(() => body(page).innerHTML(), { timeout: 15_000 }).toContain('<p class="lead">Stored <span class="note">kept</span> text</p>');
    expect(await body(page).getAttribute('aria-multiline')).toBe('true');
    // Every toolbar button is a named button; toggles say whether they are on.
    for (const name of ['Heading 1', 'Heading 2', 'Heading 3', 'Bold', 'Italic', 'Underline', 'Strikethrough', 'Inline code', 'Bulleted list', 'Numbered list', 'Quote', 'Code block']) {
      expect(await toolbar(page).getByRole('button', { name, exact: true }).getAttribute('aria-pressed'), name).toBe('false');
    }

    // The field's label focuses the text, like a label of an input.
    await page.locator('label', { hasText: /^Body$/ }).click();
    expect(await activeLabel(page)).toBe('Body');
    await body(page).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Backspace');
    // Heading, by keyboard on the toolbar button.
    await toolbar(page).getByRole('button', { name: 'Heading 2' }).press('Enter');
    expect(await activeLabel(page)).toBe('Body');
    await page.keyboard.type('Report');
    expect(await toolbar(page).getByRole('button', { name: 'Heading 2' }).getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('Enter');
    // Bold on, some words, bold off.
    await toolbar(page).getByRole('button', { name: 'Bold' }).press('Space');
    await page.keyboard.type('Strong words');
    expect(await toolbar(page).getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed')).toBe('true');
    await toolbar(page).getByRole('button', { name: 'Bold' }).press('Space');
    await page.keyboard.type(' and plain.');
    await page.keyboard.press('Enter');
    // A bulleted list of two items, then out of it.
    await toolbar(page).getByRole('button', { name: 'Bulleted list' }).press('Enter');
    await page.keyboard.type('One');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Two');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    // A link on selected text: the panel opens with its address field focused, Enter applies it
    // (and does not submit the entry form), focus returns to the text.
    await page.keyboard.type('Visit us');
    await page.keyboard.press('Shift+Home');
    // The editor takes the selection from the browser on its selectionchange event, after the key
    // press: the toolbar is reached once the editor holds it (a person is never that quick).
    await expect.poll(() => page.evaluate(
      "(({ state }) => state.doc.textBetween(state.selection.from, state.selection.to))(document.querySelector('.ProseMirror').editor)",
    )).toBe('Visit us');
    await toolbar(page).getByRole('button', { name: 'Link' }).press('Enter');
    expect(await activeLabel(page)).toBe('Link address');
    await page.keyboard.type('javascript:alert(1)');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'http(s)' }).count()).toBe(1);
    await page.getByLabel('Link address').fill('https://example.com/visit');
    await page.getByLabel('Link address').press('Enter');
    expect(await activeLabel(page)).toBe('Body');
    expect(await body(page).innerHTML()).toContain('<a href="https://example.com/visit">Visit us</a>');
    expect(await toolbar(page).getByRole('button', { name: 'Link' }).getAttribute('aria-pressed')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'richtext-link');
    // Escape closes the panel without a change.
    await toolbar(page).getByRole('button', { name: 'Link' }).press('Enter');
    await page.keyboard.press('Escape');
    expect(await page.getByLabel('Link address').count()).toBe(0);

    // Hostile paste, then a Word document, at the end.
    await body(page).press('ControlOrMeta+End');
    // (The editor has read the caret's move once the Link button no longer shows the link as current.)
    await expect.poll(() => toolbar(page).getByRole('button', { name: 'Link' }).getAttribute('aria-pressed')).toBe('false');
    await paste(page, '<p>Pasted <img src=x onerror=alert(1)> <a href="javascript:alert(1)">bad link</a><script>alert(1)</script> end</p>');
    await page.keyboard.press('Enter');
    await paste(page, word);
    await expect.poll(() => body(page).innerHTML()).toContain('Cell text');

    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect.poll(() => storedBody(), { timeout: 15_000 }).toContain('Cell text');
    const stored = await storedBody();
    expect(stored).toContain('<h2>Report</h2>');
    expect(stored).toContain('<p><strong>Strong words</strong> and plain.</p>');
    expect(stored).toContain('<ul><li><p>One</p></li><li><p>Two</p></li></ul>');
    expect(stored).toContain('<a href="https://example.com/visit">Visit us</a>');
    expect(stored).toContain('<img src="x">');
    expect(stored).toContain('bad link');
    expect(stored).toContain('<h2>From Word</h2>');
    expect(stored).toContain('<strong>Bold bit</strong> and <em>italic bit</em>');
    expect(stored).toContain('<ul><li><p>Word item one</p></li><li><p>Word item two</p></li></ul>');
    expect(stored).toContain('<p>Cell text</p>');
    expect(stored).not.toMatch(/onerror|javascript:|<script|alert\(1\)|mso-|Mso|o:p|<!--|style=|·/);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the stored HTML read-only to a viewer, without a toolbar', async () => {
    const { context, page } = await newPage(browser, 390);
    page.setDefaultTimeout(10_000);
    await page.goto(`${h.http.url}/admin/p/${project}/pages/article/${pageId}`);
    await signIn(page, viewerEmail);
    await expect.poll(() => body(page).innerHTML(), { timeout: 15_000 }).toContain('<h2>Report</h2>');
    expect(await body(page).getAttribute('contenteditable')).toBe('false');
    expect(await body(page).getAttribute('aria-readonly')).toBe('true');
    expect(await toolbar(page).count()).toBe(0);
    await context.close();
  });

  it('wraps the toolbar at 390 px without horizontal scrolling', async () => {
    const { context, page } = await newPage(browser, 390);
    page.setDefaultTimeout(10_000);
    await page.goto(`${h.http.url}/admin/p/${project}/pages/article/${pageId}`);
    await signIn(page, editorEmail);
    await expect.poll(() => toolbar(page).count(), { timeout: 15_000 }).toBe(1);
    const box = await toolbar(page).boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number)).toBeLessThanOrEqual(390);
    await shoot(page, 'richtext-mobile');
    await context.close();
  });
});
