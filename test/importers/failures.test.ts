import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isCmsError } from '../../src/core/errors.js';
import type { MigrationView } from '../../src/core/migrations/index.js';
import { entryBatchSize } from '../../src/importers/buttercms/run.js';
import { migrationJobs } from '../../src/importers/migration-jobs.js';
import { expectedCounts } from '../fakes/buttercms/account.js';
import { startFakeButter, type FakeButter, type FakeButterOptions } from '../fakes/buttercms/server.js';
import { createImportHarness, fakeSourceConfig, type ImportHarness } from './support.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const e = await promise.then(() => null, (err: unknown) => err);
  if (!isCmsError(e)) throw new Error(`expected a CmsError, got ${String(e)}`);
  return e.code;
}

/** A pid that belonged to a process which has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.on('exit', r));
  return child.pid!;
}

describe('migration failures, pauses and states', () => {
  let h: ImportHarness;
  let butter: FakeButter | undefined;
  const fake = async (opts: FakeButterOptions = {}) => {
    butter = await startFakeButter(opts);
    return butter;
  };
  const create = (b: FakeButter, mode = 'full', extra: Record<string, unknown> = {}) =>
    h.run<MigrationView>('migrations.create', { sourcePlatform: 'buttercms', mode, config: fakeSourceConfig(b, extra) });
  const get = (id: string) => h.run<MigrationView>('migrations.get', { id });
  /** Polls until the migration's progress says it reached the phase. */
  const reach = async (id: string, phases: string[]) => {
    for (let i = 0; i < 6000; i += 1) {
      const m = await get(id);
      if (phases.includes(m.progress.phase)) return m;
      if (!['pending', 'mapping', 'validating', 'importing'].includes(m.status)) throw new Error(`ended ${m.status} (${m.error}) before ${phases.join('/')}`);
      await sleep(10);
    }
    throw new Error(`never reached ${phases.join('/')}`);
  };
  /** Makes a record look like one run by the given runner right now. */
  const forgeRunning = async (id: string, runnerId: string, heartbeatAgeSeconds = 0) => {
    await h.cms.db.execute(sql`update migrations set status = 'importing', runner_id = ${runnerId}, started_at = now(),
      heartbeat_at = now() - make_interval(secs => ${heartbeatAgeSeconds}), progress = ${JSON.stringify({ phase: 'pages', done: 0, total: 38 })}::jsonb where id = ${id}`);
  };

  beforeAll(async () => { h = await createImportHarness(); });
  afterEach(async () => {
    await butter?.close();
    butter = undefined;
  });
  afterAll(async () => { await h?.close(); });

  it('a refused token fails the migration with a log line that says so, naming the request without the token', async () => {
    const b = await fake({ mode: 'bad-token' });
    const m = await h.migrate(b, 'full');
    expect(m.status).toBe('failed');
    expect(m.error).toMatch(/ButterCMS refused the API token \(401 \("Invalid token\."\)\) on GET http:\/\/127\.0\.0\.1:\d+\/v2\/pages\/\*\/\?levels=1&alt_media_text=1&page=1&page_size=100/);
    expect(m.error).not.toContain(b.token);
    expect(m.finishedAt).not.toBeNull();
    const errors = (await h.logs(m.id)).filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/refused the API token/);
    expect(errors[0]!.data).toMatchObject({ phase: 'mapping', status: 401, failure: 'unauthorized', request: { method: 'GET' } });
    expect(JSON.stringify(errors[0]!.data)).not.toContain('auth_token');
    expect(b.requests).toHaveLength(1);
    expect(m.error).toMatch(/What was imported stays\.$/);
  });

  it('a failed dry run says that nothing was written, not that what was imported stays', async () => {
    const b = await fake({ mode: 'bad-token' });
    const m = await h.migrate(b, 'dry_run');
    expect(m.status).toBe('failed');
    expect(m.error).toMatch(/refused the API token .*\. Nothing was written \(dry run\)\.$/);
    expect(m.error).not.toMatch(/imported/);
  });

  it('429 fails it at once: no retries', async () => {
    const b = await fake({ mode: 'rate-limited' });
    const m = await h.migrate(b, 'dry_run');
    expect(m.status).toBe('failed');
    expect(m.error).toMatch(/429 Too Many Requests.*API Calls limit reached/);
    expect(b.requests).toHaveLength(1);
  });

  it('an API URL that is not ButterCMS\'s (every list answers 404) fails, naming the URL to check, in a dry run and an import', async () => {
    const b = await fake();
    for (const mode of ['dry_run', 'full']) {
      const m = await h.migrate(b, mode, { apiUrl: `${b.url}/pages` });
      expect(m.status, mode).toBe('failed');
      expect(m.error, mode).toMatch(/answered 404 .*\/v2\/pages\/authors\/.*though every ButterCMS account answers it: check the API URL/);
    }
  });

  it('a source failure mid-way fails it; what was imported stays, and it cannot be started again', async () => {
    // The 16 requests that read the pages and collections (each list plainly, then with
    // preview=1) succeed; reading the blog (after the schema, media, items and pages are in) meets a 500.
    const b = await fake({ mode: 'fail-midway', failAfterRequests: 16 });
    const before = await h.contentCounts();
    const m = await h.migrate(b, 'full');
    expect(m.status).toBe('failed');
    expect(m.error).toMatch(/answered 500.*GET http:\/\/127\.0\.0\.1:\d+\/v2\/posts\/\?page=1&page_size=10; migrations do not retry/);
    expect(m.stats).toMatchObject({ pages: expectedCounts.pages, collectionItems: expectedCounts.collectionItems });
    const counts = await h.contentCounts();
    expect(counts.pages - before.pages).toBe(expectedCounts.pages);
    expect(counts.collection_items - before.collection_items).toBe(expectedCounts.collectionItems);
    expect(counts.media - before.media).toBe(m.stats.media);
    expect(counts.blog_posts).toBe(before.blog_posts);
    const error = (await h.logs(m.id)).find((l) => l.level === 'error')!;
    expect(error.data).toMatchObject({ phase: 'importing', status: 500, request: { method: 'GET', url: expect.stringMatching(/\/v2\/posts\//) } });
    expect(await codeOf(h.run('migrations.start', { id: m.id }))).toBe('MIGRATION_STATE');
  });

  it('pause takes effect after the current batch: what was imported stays, and it cannot be started again', async () => {
    const b = await fake();
    const before = await h.contentCounts();
    const created = await create(b, 'full');
    await h.run('migrations.start', { id: created.id });
    await reach(created.id, ['collectionItems']);
    const asked = await h.run<MigrationView>('migrations.pause', { id: created.id });
    expect(asked.pauseRequested).toBe(true);
    await h.runner.settled(created.id);
    const m = await get(created.id);
    expect(m.status).toBe('paused');
    expect(m.finishedAt).not.toBeNull();
    // It stopped at a batch boundary, with the stats of what it wrote.
    expect(m.progress.done % entryBatchSize === 0 || m.progress.done === m.progress.total).toBe(true);
    const counts = await h.contentCounts();
    expect(m.stats.collectionItems).toBeGreaterThan(0);
    expect(m.stats.collectionItems).toBeLessThan(expectedCounts.collectionItems);
    expect(counts.pages).toBe(before.pages);
    expect(counts.collection_items - before.collection_items).toBe(m.stats.collectionItems);
    expect(counts.blog_posts).toBe(before.blog_posts);
    const logs = await h.logs(m.id);
    expect(logs.map((l) => l.message)).toContain('Paused after the current batch; a paused migration cannot be resumed (create a new one to import again)');
    expect(await codeOf(h.run('migrations.start', { id: m.id }))).toBe('MIGRATION_STATE');
    expect(await codeOf(h.run('migrations.pause', { id: m.id }))).toBe('MIGRATION_STATE');
  });

  it('a pause while the source is read stops before anything is written', async () => {
    const b = await fake({ mode: 'slow', delayMs: 200 });
    const before = await h.contentCounts();
    const created = await create(b, 'full');
    await h.run('migrations.start', { id: created.id });
    await h.run('migrations.pause', { id: created.id });
    await h.runner.settled(created.id);
    const m = await get(created.id);
    expect(m.status).toBe('paused');
    expect(m.progress.phase).toBe('mapping');
    expect(await h.contentCounts()).toEqual(before);
  });

  it('a server that stops in the middle leaves the migration failed, with a log line saying so', async () => {
    const b = await fake({ mode: 'slow', delayMs: 300 });
    const created = await create(b, 'full');
    await h.run('migrations.start', { id: created.id });
    await reach(created.id, ['mapping']);
    await sleep(400);
    await h.restart();
    const m = await get(created.id);
    expect(m.status).toBe('failed');
    expect(m.error).toMatch(/stopped before it finished/);
    const errors = (await h.logs(m.id)).filter((l) => l.level === 'error');
    expect(errors.map((l) => l.message).join('\n')).toMatch(/The process running this migration stopped before it finished/);
  });

  it('a migration whose runner process died is marked failed when its status is read', async () => {
    const b = await fake();
    const created = await create(b);
    await forgeRunning(created.id, `${hostname()}/${await deadPid()}/gone1234`);
    const m = await get(created.id);
    expect(m.status).toBe('failed');
    const last = (await h.logs(m.id)).at(-1)!;
    expect(last.level).toBe('error');
    expect(last.message).toMatch(/stopped before it finished.*is no longer running/);
  });

  it('a runner on another machine is taken for dead only once its heartbeat is 30 s old', async () => {
    const b = await fake();
    const fresh = await create(b);
    await forgeRunning(fresh.id, 'another-host/4242/abcd1234', 5);
    expect((await get(fresh.id)).status).toBe('importing');
    const stale = await create(b);
    await forgeRunning(stale.id, 'another-host/4242/abcd1234', 45);
    expect((await h.run<MigrationView[]>('migrations.list', {})).find((m) => m.id === stale.id)!.status).toBe('failed');
    expect((await h.logs(stale.id)).at(-1)!.message).toMatch(/has shown no sign of life since/);
    // The server's job settles them too (it runs when the server starts).
    await forgeRunning(fresh.id, 'another-host/4242/abcd1234', 60);
    await migrationJobs(h.cms)[0]!.tick();
    const settled = await h.cms.db.execute(sql`select status from migrations where id = ${fresh.id}`);
    const rows = (Array.isArray(settled) ? settled : (settled as { rows: unknown[] }).rows) as Array<{ status: string }>;
    expect(rows[0]!.status).toBe('failed');
  });

  it('moves only as the contract allows: start from pending only, pause from running only, delete refused while running', async () => {
    const b = await fake();
    const created = await create(b, 'dry_run');
    expect(created).toMatchObject({ status: 'pending', progress: { phase: 'pending', done: 0, total: 0 }, stats: {}, pauseRequested: false });
    expect(await codeOf(h.run('migrations.pause', { id: created.id }))).toBe('MIGRATION_STATE');
    const running = await create(b, 'full');
    await forgeRunning(running.id, h.runner.runnerId);
    expect(await codeOf(h.run('migrations.start', { id: running.id }))).toBe('MIGRATION_STATE');
    expect(await codeOf(h.run('migrations.delete', { id: running.id }))).toBe('MIGRATION_STATE');
    await h.run('migrations.start', { id: created.id });
    await h.runner.settled(created.id);
    expect((await get(created.id)).status).toBe('completed');
    expect(await codeOf(h.run('migrations.start', { id: created.id }))).toBe('MIGRATION_STATE');
    expect(await codeOf(h.run('migrations.pause', { id: created.id }))).toBe('MIGRATION_STATE');
    // Deleting removes the record, its log and the stored credentials.
    expect(await h.run('migrations.delete', { id: created.id })).toEqual({ success: true, id: created.id });
    expect(await codeOf(get(created.id))).toBe('NOT_FOUND');
    const left = await h.cms.db.execute(sql`select count(*)::int as n from migration_logs where migration_id = ${created.id}`);
    const rows = (Array.isArray(left) ? left : (left as { rows: unknown[] }).rows) as Array<{ n: number }>;
    expect(Number(rows[0]!.n)).toBe(0);
    expect(await codeOf(get('not-a-uuid'))).toBe('NOT_FOUND');
  });

  it('checks what it is given: the source, the mode, the token, the API URL', async () => {
    const base = { sourcePlatform: 'buttercms', mode: 'full', config: { apiKey: 'k' } };
    expect(await codeOf(h.run('migrations.create', { ...base, sourcePlatform: 'contentful' }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(h.run('migrations.create', { ...base, mode: 'everything' }))).toBe('VALIDATION_FAILED');
    // The contract's body names mode without a `?`: it is required, as sourcePlatform and config are.
    const { mode: _mode, ...noMode } = base;
    expect(await codeOf(h.run('migrations.create', noMode))).toBe('VALIDATION_FAILED');
    expect(await codeOf(h.run('migrations.create', { ...base, config: { apiKey: '' } }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(h.run('migrations.create', { ...base, config: { apiKey: 'k', apiUrl: 'ftp://example.com' } }))).toBe('VALIDATION_FAILED');
    const blank = await h.run<MigrationView>('migrations.create', { ...base, config: { apiKey: 'k', apiUrl: '', pageTypes: 'a, b', collections: ['x'] } });
    expect(blank.config).toEqual({ apiKey: 'k', pageTypes: ['a', 'b'], collections: ['x'] });
    // With or without /v2, with or without the trailing slash: stored as given (trimmed), as the
    // credentials are returned as they were sent; the import reads each as http://butter.test:8080/v2.
    for (const given of ['http://butter.test:8080', 'http://butter.test:8080/', 'http://butter.test:8080/v2', ' http://butter.test:8080/v2/ ']) {
      const m = await h.run<MigrationView>('migrations.create', { ...base, config: { apiKey: 'k', apiUrl: given } });
      expect(m.config.apiUrl, given).toBe(given.trim());
    }
    const proxied = await h.run<MigrationView>('migrations.create', { ...base, config: { apiKey: 'k', apiUrl: 'https://proxy.test/butter/v2/' } });
    expect(proxied.config.apiUrl).toBe('https://proxy.test/butter/v2/');
  });
});
