import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { createTestDatabase } from '../helpers/db.js';
import { startFakeAi, type FakeAi } from '../fakes/ai/server.js';
import { fakeApiKey, smallPng } from './support.js';

const cliTimeout = 180_000;
const cleanEnv: NodeJS.ProcessEnv = {
  CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, CMS_BASE_URL: undefined, PORT: undefined, HOST: undefined,
  CMS_AI_PROVIDER: undefined, CMS_AI_BASE_URL: undefined, CMS_AI_MODEL: undefined, CMS_AI_API_KEY: undefined,
};

/**
 * `cms ai …` as a user runs it (the built CLI, `npm run build` first), in a folder made by
 * `cms init`, against the fake provider. The tests run in order.
 */
describe('cms ai', { timeout: cliTimeout }, () => {
  let root: string;
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let fake: FakeAi;
  let aiEnv: NodeJS.ProcessEnv;
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
    runCli(args, { cwd: dir, env: { ...cleanEnv, DATABASE_URL: database.url, ...env }, timeoutMs: cliTimeout });
  const json = async (args: string[], env: NodeJS.ProcessEnv = aiEnv) => {
    const res = await cli([...args, '--json'], env);
    expect(res.code, res.stderr).toBe(0);
    return res.json().data;
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cms-ai-cli-'));
    dir = join(root, 'site');
    database = await createTestDatabase();
    fake = await startFakeAi({ apiKey: fakeApiKey });
    aiEnv = { CMS_AI_PROVIDER: 'openai-compatible', CMS_AI_BASE_URL: fake.baseUrl, CMS_AI_MODEL: 'local-model', CMS_AI_API_KEY: fakeApiKey };
    const init = await runCli(['init', 'site', '--yes'], { cwd: root, env: { ...cleanEnv, DATABASE_URL: database.url } });
    expect(init.code, init.stderr).toBe(0);
    expect((await cli(['schema', 'push'])).code).toBe(0);
    const fields = JSON.stringify({ headline: 'Sourdough at home', intro: 'Your first loaf.', content: '<p>Mix <b>flour</b> and water.</p>' });
    expect((await cli(['pages', 'create', '--type', 'landing-page', '--name', 'Hello', '--slug', 'hello', '--fields', fields])).code).toBe(0);
    writeFileSync(join(dir, 'loaf.png'), smallPng());
  });
  afterAll(async () => {
    await fake.close();
    await database.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('says AI is not configured, naming the settings, and exits 1', async () => {
    const res = await cli(['ai', 'seo', '--page', 'hello'], {});
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^AI_NOT_CONFIGURED: AI is not configured: set ai\.provider .*CMS_AI_API_KEY/m);
    const asJson = await cli(['ai', 'usage', '--json'], {});
    expect(asJson.code).toBe(0);
    expect(asJson.json().data).toEqual({ months: [], callers: [] });
  });

  it('proposes SEO, and --apply writes it into the draft (a new version, not published)', async () => {
    const proposal = await json(['ai', 'seo', '--page', 'hello']);
    expect(proposal).toEqual({ metaTitle: 'Fake metaTitle', metaDescription: 'Fake metaDescription', ogTitle: 'Fake ogTitle', ogDescription: 'Fake ogDescription' });
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${fakeApiKey}`);
    expect(fake.requests[0]!.body.model).toBe('local-model');
    const before = await json(['pages', 'get', 'hello']);
    const applied = await json(['ai', 'seo', '--page', 'hello', '--apply']);
    expect(applied).toMatchObject({ applied: true, version: before.version + 1 });
    const after = await json(['pages', 'get', 'hello']);
    expect(after).toMatchObject({ version: before.version + 1, status: 'draft', seo: { metaTitle: 'Fake metaTitle' } });
    const human = await cli(['ai', 'seo', '--page', 'hello'], aiEnv);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('metaTitle:       Fake metaTitle');
  });

  it('suggests for a field and writes alt text for an uploaded image', async () => {
    fake.script({ kind: 'object', value: { suggestions: ['<p>Mix flour.</p><script>x()</script>', '<p>Two</p>'] } });
    const suggested = await json(['ai', 'suggest', '--page', 'hello', '--field', 'content', '--action', 'shorten', '--count', '2']);
    expect(suggested).toEqual({ suggestions: ['<p>Mix flour.</p>', '<p>Two</p>'] });
    const media = await json(['media', 'upload', 'loaf.png']);
    const alt = await json(['ai', 'alt-text', media.id, '--apply']);
    expect(alt).toEqual({ altText: 'Fake altText', applied: true });
    expect((await json(['media', 'get', media.id])).altText).toBe('Fake altText');
    const wrongAction = await cli(['ai', 'suggest', '--text', 'x', '--action', 'rhyme'], aiEnv);
    expect(wrongAction.code).toBe(2);
  });

  it('reports a provider failure (exit 1, AI_PROVIDER_ERROR) without the API key, and the usage', async () => {
    fake.script({ kind: 'status', status: 500, message: `upstream broke for ${fakeApiKey}` });
    const failed = await cli(['ai', 'suggest', '--text', 'Hello', '--action', 'fix', '--json'], aiEnv);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^AI_PROVIDER_ERROR: .*status 500: upstream broke/m);
    expect(failed.stderr + failed.stdout).not.toContain(fakeApiKey);
    const usage = await json(['ai', 'usage']);
    expect(usage.months).toEqual([expect.objectContaining({ calls: 6, failures: 1, inputTokens: 500, outputTokens: 100 })]);
    expect(usage.callers).toEqual([expect.objectContaining({ kind: 'terminal', calls: 6, failures: 1 })]);
    const human = await cli(['ai', 'usage'], aiEnv);
    expect(human.stdout).toMatch(/MONTH\s+CALLS\s+FAILURES/);
  });
});
