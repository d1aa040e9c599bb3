import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectedCounts, fakeImportConfig } from '../fakes/buttercms/account.js';
import { startFakeButter, type FakeButter } from '../fakes/buttercms/server.js';
import { runCli, spawnCli, startCliServer, type CliResult } from '../helpers/cli.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';

/**
 * `cms migrate` as CI runs it: the built CLI (`npm run build` first) as a child process, in one
 * project folder, against the fake ButterCMS served from this process.
 */
describe('cms migrate (child process)', () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let butter: FakeButter;
  let slow: FakeButter | undefined;

  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ DATABASE_URL: database.url, BUTTERCMS_API_KEY: undefined, ...extra });
  const cli = (args: string[], extra: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
    runCli(args, { cwd: dir, env: env(extra), timeoutMs: 600_000 });
  const sourceArgs = (b: FakeButter) => [
    '--from', 'buttercms', '--api-url', b.url,
    '--page-types', fakeImportConfig.pageTypes.join(','), '--collections', fakeImportConfig.collections.join(','),
  ];

  /** Starts `cms migrate run` and resolves with the migration id once it printed it. */
  function startRun(args: string[]) {
    // --progress: plain progress lines on stderr (not a terminal), which these tests wait for.
    const child = spawnCli(['migrate', 'run', '--progress', ...args], { cwd: dir, env: env() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
    const id = new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (d) => {
        stderr += d;
        const m = /\[migrate\] created ([0-9a-f-]{36})/.exec(stderr);
        if (m) resolve(m[1]!);
      });
      child.on('close', () => reject(new Error(`exited before it created a migration:\n${stderr}`)));
    });
    const progressed = (pattern: RegExp) => new Promise<void>((resolve, reject) => {
      const check = () => { if (pattern.test(stderr)) { child.stderr.off('data', check); resolve(); } };
      child.stderr.on('data', check);
      child.on('close', () => reject(new Error(`exited before ${String(pattern)}:\n${stderr}`)));
      check();
    });
    return { child, id, exited, progressed };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-migrate-cli-'));
    database = await createTestDatabase();
    butter = await startFakeButter();
  });
  afterEach(async () => {
    await slow?.close();
    slow = undefined;
  });
  afterAll(async () => {
    await butter?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('migrate run --json imports the account and prints only the final record; no progress when stderr is not a terminal', async () => {
    const r = await cli(['migrate', 'run', ...sourceArgs(butter), '--mode', 'full', '--api-key', butter.token, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { data } = r.json();
    expect(data).toMatchObject({
      sourcePlatform: 'buttercms', mode: 'full', status: 'completed', error: null,
      stats: { pages: expectedCounts.pages, collectionItems: expectedCounts.collectionItems, media: expectedCounts.media.uniqueContents, blogPosts: expectedCounts.posts },
    });
    expect(r.stdout.trim().startsWith('{')).toBe(true);
    expect(() => JSON.parse(r.stdout)).not.toThrow();
    // Not a terminal: no progress at all (decisions §11: progress only when stderr is a TTY).
    expect(r.stderr).toBe('');

    const list = await cli(['migrate', 'list', '--json']);
    expect(list.json().data.map((m: { id: string }) => m.id)).toEqual([data.id]);
    const status = await cli(['migrate', 'status', data.id]);
    expect(status.stdout).toContain(`Migration ${data.id} (buttercms, full): completed`);
    const logs = await cli(['migrate', 'logs', data.id, '--level', 'error', '--json']);
    expect(logs.code).toBe(0);
    expect(logs.json().data).toEqual([]);
    const pages = await cli(['pages', 'list', '--json']);
    expect(pages.code, pages.stderr).toBe(0);
  }, 600_000);

  it('takes the key from BUTTERCMS_API_KEY; a refused token ends it failed with exit code 1', async () => {
    const r = await cli(['migrate', 'run', ...sourceArgs(butter), '--mode', 'dry_run', '--json'], { BUTTERCMS_API_KEY: 'not-the-token' });
    expect(r.code).toBe(1);
    const { data } = r.json();
    expect(data.status).toBe('failed');
    expect(data.config.apiKey).toBe('not-the-token');
    expect(data.error).toMatch(/refused the API token/);
    expect(r.stderr).toMatch(/ended failed: ButterCMS refused the API token/);
  });

  it('says which source URL it reads (on stderr), whichever form --api-url had', async () => {
    const origin = new URL(butter.url).origin;
    const r = await cli(['migrate', 'create', '--from', 'buttercms', '--api-url', `${origin}/`, '--api-key', 'k', '--mode', 'dry_run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Reading ${origin}/v2\n`);
    const json = await cli(['migrate', 'create', '--from', 'buttercms', '--api-url', origin, '--api-key', 'k', '--json']);
    // Stored as given; read as ${origin}/v2.
    expect(json.json().data.config.apiUrl).toBe(origin);
    expect(json.stderr).toBe('');
    const plain = await cli(['migrate', 'create', '--from', 'buttercms', '--api-key', 'k']);
    expect(plain.stderr).toContain('Reading https://api.buttercms.com/v2\n');
  });

  it('without a key it is a usage error', async () => {
    const r = await cli(['migrate', 'run', '--from', 'buttercms', '--json']);
    expect(r.code).toBe(2);
    expect(r.json().error.message).toMatch(/BUTTERCMS_API_KEY/);
  });

  it('Ctrl-C pauses the migration after its current batch', async () => {
    slow = await startFakeButter({ mode: 'slow', delayMs: 300 });
    const run = startRun([...sourceArgs(slow), '--mode', 'full', '--api-key', slow.token, '--json']);
    await run.id;
    await run.progressed(/\[migrate\] mapping \d+\/\d+/);
    run.child.kill('SIGINT');
    const out = await run.exited;
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout).data).toMatchObject({ status: 'paused', pauseRequested: true });
    expect(out.stderr).toMatch(/Pausing after the current batch/);
  }, 600_000);

  it('a second Ctrl-C stops waiting at once: the record printed is the stored one, in its final state', async () => {
    slow = await startFakeButter({ mode: 'slow', delayMs: 1500 });
    const run = startRun([...sourceArgs(slow), '--mode', 'full', '--api-key', slow.token, '--json']);
    const id = await run.id;
    await run.progressed(/\[migrate\] mapping \d+\/\d+/);
    // The second while the source's answer (1.5 s) is still awaited: the pause has not taken effect.
    run.child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 50));
    run.child.kill('SIGINT');
    const out = await run.exited;
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/Stopping now: the migration is marked failed/);
    const printed = JSON.parse(out.stdout).data;
    const stored = (await cli(['migrate', 'status', id, '--json'])).json().data;
    // Stopped (failed), or paused if the pause won the race; never the phase it was in.
    expect(['failed', 'paused']).toContain(stored.status);
    expect(printed).toMatchObject({ id, status: stored.status });
  }, 600_000);

  it('a run that is killed leaves its migration failed, with a log line saying so', async () => {
    slow = await startFakeButter({ mode: 'slow', delayMs: 300 });
    const run = startRun([...sourceArgs(slow), '--mode', 'full', '--api-key', slow.token]);
    const id = await run.id;
    await run.progressed(/\[migrate\] mapping \d+\/\d+/);
    run.child.kill('SIGKILL');
    await run.exited;
    const status = await cli(['migrate', 'status', id, '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.json().data).toMatchObject({ status: 'failed', error: expect.stringMatching(/stopped before it finished/) });
    const logs = await cli(['migrate', 'logs', id, '--level', 'error', '--json']);
    expect(logs.json().data.map((l: { message: string }) => l.message).join('\n')).toMatch(/The process running this migration stopped before it finished/);
  }, 600_000);

  it('with `cms serve` running, migrate run starts it on the server and follows it there', async () => {
    const server = await startCliServer([], { cwd: dir, env: env() });
    try {
      const r = await cli(['migrate', 'run', ...sourceArgs(butter), '--mode', 'dry_run', '--api-key', butter.token, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const { data } = r.json();
      expect(data.status).toBe('completed');
      const logs = await cli(['migrate', 'logs', data.id, '--json']);
      const started = logs.json().data.find((l: { message: string }) => l.message === 'Started by terminal');
      // On an embedded database the CLI goes through the server, whose process runs it.
      if (testDriver === 'pglite') expect(started.data.runner).toContain(`/${server.pid}/`);
      else expect(started.data.runner).toMatch(/\/\d+\//);
    } finally {
      await server.stop();
    }
  }, 600_000);
});

/**
 * The set-up the README and decisions §11 give scripts: `cms init DIR --yes`, `cms schema push`
 * (the starter schemas, whose landing-page shares its slug with the ButterCMS account's), then a
 * full import. Fields the two have in common hold strings in both (text, textarea, wysiwyg,
 * select): the project's fields stay, and the import goes through.
 */
describe('cms migrate into a project made by cms init and cms schema push', () => {
  let root: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let butter: FakeButter;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cms-migrate-starter-'));
    database = await createTestDatabase();
    butter = await startFakeButter();
  });
  afterAll(async () => {
    await butter?.close();
    await database?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('imports the account into the starter landing-page, keeping its fields and adding the rest', async () => {
    const env: NodeJS.ProcessEnv = { DATABASE_URL: database.url, BUTTERCMS_API_KEY: undefined };
    const init = await runCli(['init', 'site', '--yes'], { cwd: root, env });
    expect(init.code, init.stderr).toBe(0);
    const dir = join(root, 'site');
    const cli = (args: string[]) => runCli(args, { cwd: dir, env, timeoutMs: 600_000 });
    const push = await cli(['schema', 'push']);
    expect(push.code, push.stderr).toBe(0);

    const r = await cli([
      'migrate', 'run', '--from', 'buttercms', '--mode', 'full', '--api-key', butter.token, '--api-url', butter.url,
      '--page-types', fakeImportConfig.pageTypes.join(','), '--collections', fakeImportConfig.collections.join(','), '--json',
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const { data } = r.json();
    expect(data).toMatchObject({ status: 'completed', error: null, stats: { pages: expectedCounts.pages } });
    const logs = (await cli(['migrate', 'logs', data.id, '--json'])).json().data.map((l: { level: string; message: string }) => `${l.level}: ${l.message}`);
    expect(logs.filter((l: string) => l.startsWith('error:'))).toEqual([]);
    // The project's field types stay; each difference is said once.
    expect(logs).toContainEqual(expect.stringMatching(/^warning: pageTypes\/landing-page\.intro: the project's textarea field takes the imported wysiwyg values as they are/));

    expect((await cli(['schema', 'pull'])).code).toBe(0);
    const landing = JSON.parse(readFileSync(join(dir, 'schemas', 'page-types', 'landing-page.json'), 'utf8'));
    const fieldType = (name: string) => landing.fields.find((f: { name: string }) => f.name === name)?.type;
    expect([fieldType('intro'), fieldType('theme'), fieldType('headline'), fieldType('hero_image')]).toEqual(['textarea', 'select', 'text', 'image']);
    const page = (await cli(['pages', 'get', 'spring-launch', '--json'])).json().data;
    expect(page).toMatchObject({ status: 'published', publishedAt: '2024-04-02T09:15:22.318Z' });
    expect(page.publishedContent).toMatchObject({ headline: 'Meet the new Acme Rocket', intro: '<p>Faster than <strong>ever</strong>.</p>', theme: 'dark' });
    expect(page.publishedContent.body.map((c: { _type: string }) => c._type)).toEqual(['hero', 'two-column-with-image']);
  }, 600_000);
});
