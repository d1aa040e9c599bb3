import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createCms } from '../../src/runtime.js';
import { runCli, startCliServer } from '../helpers/cli.js';
import { createTestDatabase } from '../helpers/db.js';
import { emitEvents } from './emit.js';
import { ok, startReceiver, type Receiver } from './receiver.js';

const cliTimeout = 240_000;
const cleanEnv: NodeJS.ProcessEnv = { CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, CMS_BASE_URL: undefined, PORT: undefined, HOST: undefined, CMS_WEBHOOK_BLOCK_PRIVATE: undefined, CMS_SHUTDOWN_GRACE_MS: undefined };
const terminal = { kind: 'terminal' } as const;
const backlog = 80;
const graceMs = 2_000;

/**
 * `cms serve` (the built CLI, a child process) stopped with a webhook backlog queued for a
 * receiver that never answers: it exits within its shutdown grace period, and what it could not
 * send stays in the outbox for the next start. On PGlite and, with DATABASE_URL, on PostgreSQL.
 */
describe('cms serve stopping with a webhook backlog', { timeout: cliTimeout }, () => {
  let root: string;
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let r: Receiver;
  let hookId: string;
  const env = (): NodeJS.ProcessEnv => ({ ...cleanEnv, DATABASE_URL: database.url, CMS_SHUTDOWN_GRACE_MS: String(graceMs) });
  /** The engine in this process, while no server holds the data folder. */
  const withEngine = async <T>(fn: (cms: Awaited<ReturnType<typeof createCms>>) => Promise<T>): Promise<T> => {
    const cms = await createCms(loadConfig({ cwd: dir, env: { DATABASE_URL: database.url } }));
    try { return await fn(cms); } finally { await cms.close(); }
  };
  const deliveries = () => withEngine(async (cms) => {
    const all = [];
    for (let page = 1; ; page++) {
      const batch = (await cms.run('webhooks.deliveries', { id: hookId, page, limit: 100 }, { actor: terminal })).data as Array<{ id: string; status: string; attemptCount: number; attempts: unknown[] }>;
      all.push(...batch);
      if (batch.length < 100) return all;
    }
  });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cms-webhooks-shutdown-'));
    dir = join(root, 'site');
    database = await createTestDatabase();
    // Takes every request and never answers, until told otherwise.
    r = await startReceiver(() => {});
    const init = await runCli(['init', 'site', '--yes'], { cwd: root, env: env() });
    expect(init.code, init.stderr).toBe(0);
    const created = await runCli(['webhooks', 'create', '--url', r.url, '--events', 'page.created', '--json'], { cwd: dir, env: env() });
    expect(created.code, created.stderr).toBe(0);
    hookId = created.json().data.id;
    // The backlog, written through the real write path (outbox rows in the write's transaction).
    await withEngine((cms) => cms.run(emitEvents as never, { kind: 'page.created', count: backlog }, { actor: terminal }));
  }, cliTimeout);
  afterAll(async () => {
    await r.close();
    await database.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('exits 0 within the grace period, leaving what it could not send pending in the outbox', async () => {
    const server = await startCliServer([], { cwd: dir, env: env() });
    // The dispatcher is busy: a full set of attempts is waiting on the silent receiver.
    await r.waitFor(16, 30_000);
    const stoppingAt = Date.now();
    const { code, stderr, stdout } = await server.stop('SIGTERM');
    const tookMs = Date.now() - stoppingAt;
    expect(code, stderr).toBe(0);
    // Before the fix it waited for every attempt to time out (30 s each, 16 at a time).
    expect(tookMs).toBeLessThan(graceMs + 8_000);
    // The server's log lines are JSON on standard output (docs/operating.md).
    expect(stderr).toMatch(/"level":"warn".*cut short/);

    const rows = await deliveries();
    expect(rows).toHaveLength(backlog);
    // Attempts cut short are not counted against the receiver: every delivery is still pending.
    expect(rows.every((d) => d.status === 'pending' && d.attemptCount === 0 && d.attempts.length === 0)).toBe(true);
  });

  it('sends the whole backlog after a restart, at once (the claims were released)', async () => {
    r.reply(ok);
    const before = r.received.length;
    const server = await startCliServer([], { cwd: dir, env: env() });
    try {
      // Well before the claims' 90-second lease would have run out.
      await r.waitFor(before + backlog, 20_000);
      const ids = new Set(r.received.slice(before).map((got) => got.headers['x-webhook-delivery-id']));
      expect(ids.size).toBe(backlog);
    } finally {
      const { code } = await server.stop('SIGTERM');
      expect(code).toBe(0);
    }
    const rows = await deliveries();
    expect(rows.filter((d) => d.status === 'success')).toHaveLength(backlog);
  });
});
