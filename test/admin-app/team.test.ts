import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs, type RunningJobs } from '../../src/background-jobs.js';
import { webhookJobs } from '../../src/webhooks/delivery-jobs.js';
import { createAdminHarness, type AdminHarness } from '../admin/support.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { launchBrowser, newPage, seriousViolations, shoot, signIn } from './support.js';

// The team's settings screens of the admin app (API keys, Members, Account, Webhooks) in headless
// Chromium against the real server on a socket, with the server's own webhook job sending the
// deliveries to a node:http receiver of the test.
let h: AdminHarness;
let browser: Browser;
let receiver: Receiver;
let jobs: RunningJobs;
let project = '';
let owner = { id: '', email: '' };
let developer = { id: '', email: '' };
let editor = { id: '', email: '' };
const outsiderEmail = 'newbie@example.test';

const settings = (area: string) => `${h.http.url}/admin/p/${project}/settings/${area}`;

async function openAs(email: string, area: string, clipboard = false): Promise<{ page: Page; close(): Promise<void> }> {
  const { context, page } = await newPage(browser);
  if (clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.http.url });
  await page.goto(settings(area));
  await page.waitForURL(/\/admin\/login/);
  await signIn(page, email);
  await page.waitForURL((u) => u.pathname.endsWith(`/settings/${area}`));
  return { page, close: () => context.close() };
}

beforeAll(async () => {
  h = await createAdminHarness();
  [{ slug: project }] = await h.t.run('projects.list', {});
  await h.t.run('types.create', { kind: 'pageTypes', definition: { slug: 'article', name: 'Articles', fields: [{ name: 'title', type: 'text' }] } });
  await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'Unpublished plan', slug: 'unpublished-plan', fields: { title: 'Draft only' } });
  owner = await h.createUser('owner', { email: 'owner@example.test' });
  developer = await h.createUser('developer', { email: 'dev@example.test' });
  editor = await h.createUser('editor', { email: 'editor@example.test' });
  // A second project: the owner is its editor, and the outsider a user of it only.
  await h.t.cms.run('projects.create', { slug: 'second', name: 'Second site' }, { actor: { kind: 'terminal' } });
  await h.t.cms.run('members.add', { email: owner.email, role: 'editor' }, { actor: { kind: 'terminal' }, project: 'second' });
  await h.createUser('viewer', { email: outsiderEmail, project: 'second' });
  receiver = await startReceiver();
  jobs = startJobs(h.t.cms, webhookJobs(h.t.cms));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await jobs?.stop();
  await receiver?.close();
  await h?.close();
});

describe('API keys', () => {
  it('creates a preview key, shows it once with a copy button, and it reads a draft through the public API', async () => {
    const { page, close } = await openAs(owner.email, 'keys', true);
    await expect.poll(() => page.getByRole('heading', { name: 'No keys yet' }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'team-keys-empty');

    await page.getByRole('radio', { name: /Preview/ }).check();
    await page.getByLabel('Name (optional)').fill('Preview site');
    await page.getByRole('button', { name: 'Create preview key' }).click();
    const shown = page.getByLabel('The new key');
    await expect.poll(() => shown.inputValue()).toMatch(/^preview_/);
    const key = await shown.inputValue();
    await page.getByRole('button', { name: 'Copy the new key' }).click();
    await expect.poll(() => page.getByText('Copied to the clipboard.').count()).toBe(1);
    // (Expressions as strings: the test is compiled without the DOM's types.)
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'team-keys-new');

    // The preview key reads the draft; without it the draft is not there.
    const draft = await h.fetch('/api/v1/pages/unpublished-plan', { headers: { 'x-preview-key': key } });
    expect(draft.status).toBe(200);
    expect((await draft.json()).data).toMatchObject({ name: 'Unpublished plan', fields: { title: 'Draft only' } });
    expect((await h.fetch('/api/v1/pages/unpublished-plan', { headers: { 'x-preview-key': 'preview_nope' } })).status).toBe(401);

    // Once dismissed, the key is nowhere on the page: the list has its type, name and dates only.
    await page.getByRole('button', { name: 'I have copied it' }).click();
    const list = page.getByRole('list', { name: 'Keys' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    const row = await list.getByRole('listitem').first().textContent();
    expect(row).toContain('Preview site');
    expect(row).toContain('preview');
    expect(row).toContain('Created');
    expect(await page.content()).not.toContain(key);
    await close();
  });

  it('creates a secret key with permissions and revokes it after a confirmation', async () => {
    const { page, close } = await openAs(owner.email, 'keys');
    await page.getByRole('radio', { name: /Secret/ }).check();
    const perms = page.getByRole('group', { name: 'Permissions of the secret key' });
    await perms.getByRole('checkbox', { name: /content:write/ }).check();
    await perms.getByRole('checkbox', { name: /ai:use/ }).check();
    await page.getByLabel('Name (optional)').fill(`Build server ${'with a very long name '.repeat(6)}`.trim());
    await page.getByRole('button', { name: 'Create secret key' }).click();
    const shown = page.getByLabel('The new key');
    await expect.poll(() => shown.inputValue()).toMatch(/^svc_sk_/);
    const key = await shown.inputValue();
    await page.getByRole('button', { name: 'I have copied it' }).click();
    const item = page.getByRole('list', { name: 'Keys' }).getByRole('listitem').filter({ hasText: 'Build server' });
    await expect.poll(() => item.textContent()).toContain('content:write, ai:use');
    expect(await item.locator('.item-title').getAttribute('title')).toMatch(/long name$/);
    expect((await h.fetch('/api/v1/pages', { headers: { 'x-api-key': key } })).status).toBe(200);
    await shoot(page, 'team-keys-list');

    await item.getByRole('button', { name: /^Revoke Build server/ }).click();
    const confirm = item.getByRole('group', { name: /Revoke Build server.*stop working/ });
    expect(await confirm.count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: /^Revoke Build server/ }).click();
    await expect.poll(() => item.count()).toBe(0);
    expect((await h.fetch('/api/v1/pages', { headers: { 'x-api-key': key } })).status).toBe(401);
    // Shown again with the revoked ones.
    await page.getByLabel('Show revoked keys').check();
    await expect.poll(() => item.textContent()).toMatch(/revoked/);
    await close();
  });
});

describe('Members', () => {
  it('adds an existing user, explains an unknown one, changes a role, removes, and keeps the last owner', async () => {
    const { page, close } = await openAs(owner.email, 'members');
    const list = page.getByRole('list', { name: /Members/ });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(3);
    // The last owner: explained up front, its controls disabled.
    const me = list.getByRole('listitem').filter({ hasText: owner.email });
    expect(await me.textContent()).toContain('The last owner of a project cannot be removed or demoted; make someone else owner first.');
    expect(await me.getByLabel(`Role of ${owner.email}`).isDisabled()).toBe(true);
    expect(await me.getByRole('button', { name: `Remove ${owner.email}` }).isDisabled()).toBe(true);

    // An unknown email: the API's message at the form, and how to create the user.
    await page.getByLabel('Email of an existing user').fill('nobody@example.test');
    await page.getByRole('button', { name: 'Add member' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('No user with the email nobody@example.test');
    expect(await page.getByLabel('Command to create the user').inputValue()).toBe(`cms users create --email nobody@example.test --role editor --project ${project}`);
    await shoot(page, 'team-members-unknown');

    await page.getByLabel('Email of an existing user').fill(outsiderEmail);
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Add member' }).click();
    await expect.poll(() => page.getByText(`${outsiderEmail} was added as viewer.`).count()).toBe(1);
    const added = list.getByRole('listitem').filter({ hasText: outsiderEmail });
    await expect.poll(() => added.count()).toBe(1);

    await added.getByLabel(`Role of ${outsiderEmail}`).selectOption('developer');
    await expect.poll(() => added.getByRole('status').textContent()).toBe('Role changed to developer.');
    const cookie = await h.signIn(owner.email);
    const members = (await (await h.call('GET', '/api/v1/admin/members', { cookie, project })).json()).data as Array<{ email: string; role: string }>;
    expect(members.find((m) => m.email === outsiderEmail)?.role).toBe('developer');

    // Making a second owner lifts the last-owner rule for both.
    await added.getByLabel(`Role of ${outsiderEmail}`).selectOption('owner');
    await expect.poll(() => me.getByLabel(`Role of ${owner.email}`).isDisabled()).toBe(false);
    await added.getByLabel(`Role of ${outsiderEmail}`).selectOption('editor');
    await expect.poll(() => me.getByLabel(`Role of ${owner.email}`).isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'team-members');

    // Removing by keyboard: the confirmation takes the focus, Escape cancels, Enter confirms.
    await added.getByRole('button', { name: `Remove ${outsiderEmail}` }).focus();
    await page.keyboard.press('Enter');
    const focused = () => page.evaluate('document.activeElement?.textContent ?? ""');
    await expect.poll(focused).toBe(`Remove ${outsiderEmail}`);
    expect(await added.getByRole('group', { name: `Remove ${outsiderEmail} from the project?` }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(focused).toBe('Remove');
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe(`Remove ${outsiderEmail}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => added.count()).toBe(0);
    await close();
  });

  it('offers an admin no owner role, and shows the API’s last-owner refusal at the control', async () => {
    const admin = await h.createUser('admin', { email: 'admin@example.test' });
    // Two owners when the screen loads, so nothing is disabled up front ...
    await h.t.cms.run('members.update', { userId: developer.id, role: 'owner' }, { actor: { kind: 'terminal' } });
    const { page, close } = await openAs(admin.email, 'members');
    const list = page.getByRole('list', { name: /Members/ });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(4);
    expect(await page.getByText('Only an owner can make someone an owner.').count()).toBe(1);
    const adminRow = list.getByRole('listitem').filter({ hasText: admin.email });
    expect(await adminRow.locator('option[value=owner]').isDisabled()).toBe(true);
    const ownerRow = list.getByRole('listitem').filter({ hasText: owner.email });
    expect(await ownerRow.getByLabel(`Role of ${owner.email}`).isDisabled()).toBe(false);
    // ... then one is demoted behind the screen's back, and the API refuses to demote the other.
    await h.t.cms.run('members.update', { userId: developer.id, role: 'developer' }, { actor: { kind: 'terminal' } });
    await ownerRow.getByLabel(`Role of ${owner.email}`).selectOption('admin');
    await expect.poll(() => ownerRow.getByRole('alert').textContent()).toBe('The last owner of a project cannot be removed or demoted; make someone else owner first');
    expect(await ownerRow.getByLabel(`Role of ${owner.email}`).inputValue()).toBe('owner');
    // The list is read again, and the rule is now explained up front.
    await expect.poll(() => ownerRow.getByLabel(`Role of ${owner.email}`).isDisabled()).toBe(true);
    const devRow = list.getByRole('listitem').filter({ hasText: developer.email });
    await expect.poll(() => devRow.getByLabel(`Role of ${developer.email}`).inputValue()).toBe('developer');
    expect(await ownerRow.getByText('make someone else owner first').count()).toBe(1); // said once
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'team-members-refused');
    await close();
  });
});

describe('Webhooks', () => {
  it('creates a webhook to a local receiver, tests it, sees a failure in the log and redelivers it', async () => {
    const { page, close } = await openAs(developer.email, 'webhooks');
    await expect.poll(() => page.getByRole('heading', { name: 'No webhooks yet' }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'New webhook' }).click();
    await page.getByLabel('Receiver URL').fill('ftp://example.com/hook');
    await page.getByRole('checkbox', { name: 'page.published' }).uncheck();
    await page.getByRole('checkbox', { name: 'page.unpublished' }).uncheck();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Choose at least one event.');
    await page.getByRole('checkbox', { name: 'page.published' }).check();
    await page.getByRole('checkbox', { name: 'collection_item.published' }).check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    // The API's refusal, at the URL field.
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/http/);
    expect(await page.getByLabel('Receiver URL').getAttribute('aria-invalid')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'team-webhook-new');
    await page.getByLabel('Receiver URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Create webhook' }).click();

    // The secret once, whole, with a copy button; the settings show it masked.
    const secretField = page.getByLabel('The signing secret');
    await expect.poll(() => secretField.inputValue()).toMatch(/^whsec_/);
    const secret = await secretField.inputValue();
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await expect.poll(() => page.locator('.item-facts').first().textContent()).toContain(`whsec_…${secret.slice(-8)}`);
    expect(await page.content()).not.toContain(secret);

    // A test delivery reaches the receiver and shows in the log as a success with its attempt.
    await page.getByRole('button', { name: 'Send test' }).click();
    await receiver.waitFor(1);
    const log = page.getByRole('list', { name: 'Deliveries' });
    await expect.poll(() => log.getByRole('listitem').first().textContent(), { timeout: 15_000 }).toMatch(/page\.updatedsuccess/);
    await log.getByRole('listitem').first().getByText(/^Attempts \(1\)/).click();
    await expect.poll(() => log.getByRole('listitem').first().locator('table.attempts').textContent()).toMatch(/200.*ok/);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'team-webhook-log');

    // The receiver fails: the log shows the failure, its status code, body and next retry.
    receiver.reply((_r, res) => { res.writeHead(500, { 'content-type': 'text/plain' }).end('receiver broke'); });
    h.clock.advance(5 * 60_000);
    await page.getByRole('button', { name: 'Send test' }).click();
    await receiver.waitFor(2);
    const failed = log.getByRole('listitem').filter({ hasText: /^page\.updatedfailed/ });
    await expect.poll(() => failed.count(), { timeout: 15_000 }).toBe(1);
    expect(await log.getByRole('listitem').first().textContent()).toMatch(/^page\.updatedfailed/); // newest first
    expect(await failed.textContent()).toContain('Next retry');
    expect(await failed.textContent()).toContain('Last status500');
    // Filtered by status: only the failed one.
    await page.getByLabel('Status').selectOption('failed');
    await expect.poll(() => log.getByRole('listitem').count()).toBe(1);
    await page.getByLabel('Status').selectOption('exhausted');
    await expect.poll(() => page.getByRole('heading', { name: 'No exhausted deliveries' }).count()).toBe(1);
    await page.getByLabel('Status').selectOption('failed');
    await expect.poll(() => log.getByRole('listitem').count()).toBe(1);

    // The receiver recovers; redeliver sends the same delivery again as its second attempt.
    receiver.reply((_r, res) => { res.writeHead(200, { 'content-type': 'text/plain' }).end('fixed now'); });
    h.clock.advance(30_000);
    await log.getByRole('listitem').first().getByRole('button', { name: /^Redeliver page\.updated/ }).click();
    await receiver.waitFor(3);
    expect(receiver.received[2]!.headers['x-webhook-delivery-id']).toBe(receiver.received[1]!.headers['x-webhook-delivery-id']);
    await page.getByLabel('Status').selectOption('success');
    await expect.poll(() => log.getByRole('listitem').count(), { timeout: 15_000 }).toBe(2);
    const redelivered = log.getByRole('listitem').filter({ hasText: 'Attempts2' });
    expect(await redelivered.count()).toBe(1);
    await redelivered.getByText(/^Attempts \(2\)/).click();
    const rows = redelivered.locator('table.attempts tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toMatch(/^1.*500.*receiver broke/);
    expect(await rows.nth(1).textContent()).toMatch(/^2.*200.*fixed now/);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'team-webhook-redelivered');

    // Regenerate: a new secret, shown once.
    await page.getByRole('button', { name: 'Regenerate secret' }).click();
    await page.getByRole('button', { name: 'Regenerate the secret' }).click();
    await expect.poll(() => secretField.inputValue()).toMatch(/^whsec_/);
    expect(await secretField.inputValue()).not.toBe(secret);
    await page.getByRole('button', { name: 'I have copied it' }).click();

    // Edit: inactive, and the test is disabled with the reason.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('checkbox', { name: /^Active/ }).uncheck();
    await page.getByRole('checkbox', { name: 'media.uploaded' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByText('inactive', { exact: true }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: 'Send test' }).isDisabled()).toBe(true);
    expect(await page.getByText('An inactive webhook cannot be tested or redelivered').count()).toBe(1);
    const cookie = await h.signIn(developer.email);
    const [hook] = (await (await h.call('GET', '/api/v1/admin/webhooks', { cookie, project })).json()).data;
    expect(hook).toMatchObject({ url: receiver.url, active: false, events: ['page.published', 'collection_item.published', 'media.uploaded'] });

    await page.getByRole('link', { name: '← All webhooks' }).click();
    const list = page.getByRole('list', { name: 'Webhooks' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    expect(await list.textContent()).toContain('inactive');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'team-webhooks');
    await close();
  });
});

describe('roles and the account', () => {
  it('a developer opens webhooks but is told why keys and members are closed', async () => {
    const { page, close } = await openAs(developer.email, 'keys');
    await expect.poll(() => page.getByRole('heading', { name: 'API keys: not available to your role' }).count()).toBe(1);
    expect(await page.getByText('API keys are managed by admins and owners.').count()).toBe(1);
    const nav = page.getByRole('navigation', { name: 'Content' });
    expect(await nav.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Members' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'team-developer-keys');
    await page.goto(settings('members'));
    await expect.poll(() => page.getByRole('heading', { name: 'Members: not available to your role' }).count()).toBe(1);
    await nav.getByRole('link', { name: 'Webhooks' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Webhooks');
    await close();
  });

  it('an editor cannot open webhooks', async () => {
    const { page, close } = await openAs(editor.email, 'webhooks');
    await expect.poll(() => page.getByRole('heading', { name: 'Webhooks: not available to your role' }).count()).toBe(1);
    expect(await page.getByText(/You are an? editor of this project\. Webhooks are managed by developers/).count()).toBe(1);
    expect(await page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    await close();
  });

  it('shows the signed-in user with their projects and roles, switches project and signs out', async () => {
    const { page, close } = await openAs(owner.email, 'account');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Account');
    const projects = page.getByRole('list', { name: /Your projects/ });
    await expect.poll(() => projects.getByRole('listitem').count()).toBe(2);
    expect(await page.locator('.team').textContent()).toContain(owner.email);
    const second = projects.getByRole('listitem').filter({ hasText: 'Second site' });
    expect(await second.textContent()).toContain('editor');
    expect(await projects.getByRole('listitem').filter({ hasText: 'current project' }).textContent()).toContain('owner');
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'team-account');
    await second.getByRole('link', { name: 'Second site' }).click();
    await page.waitForURL(/\/admin\/p\/second$/);
    await page.goto(`${h.http.url}/admin/p/second/settings/account`);
    await page.locator('.team').getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/admin\/login/);
    const me = await page.evaluate(async () => (await fetch('/api/v1/admin/auth/me')).status);
    expect(me).toBe(401);
    await close();
  });
});
