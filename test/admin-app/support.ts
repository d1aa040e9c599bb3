import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { defaultAdminDir } from '../../src/http/admin-static.js';
import { password } from '../admin/support.js';

// What every browser suite of the admin app shares: Debian's chromium (`.ci/run` installs it when it
// is missing) driven by playwright-core, signing in, screenshots at 1280 and 390 px, and axe-core.
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const shots = '/tmp/admin-shots';

/** Chromium, off the network; throws a clear error when it or the built app is missing. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium is not installed at ${chromiumPath}: install Debian's chromium (.ci/run does) or set CHROMIUM_PATH`);
  }
  if (!existsSync(join(defaultAdminDir, 'index.html'))) throw new Error('dist/admin is not built: run npm run build');
  mkdirSync(shots, { recursive: true });
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-dev-shm-usage'],
  });
}

export async function newPage(browser: Browser, width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: width > 800 ? 860 : 844 } });
  const page = await context.newPage();
  return { context, page };
}

/** Fills the sign-in form of the page (already at /admin/login or redirected there) and submits. */
export async function signIn(page: Page, email: string, pw = password): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(pw);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Full-page screenshots at 1280 and 390 px wide, into /tmp/admin-shots/NAME-WIDTH.png. */
export async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 800 ? 860 : 844 });
    await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 860 });
}

/** axe-core's serious and critical violations on the page, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
