import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCliServer, type CliResult } from '../helpers/cli.js';
import { createTestDatabase } from '../helpers/db.js';
import { startReceiver, type Receiver } from './receiver.js';

const cliTimeout = 180_000;
const cleanEnv: NodeJS.ProcessEnv = { CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, CMS_BASE_URL: undefined, PORT: undefined, HOST: undefined, CMS_WEBHOOK_BLOCK_PRIVATE: undefined };

/**
 * `cms webhooks …` as a user runs it (the built CLI, `npm run build` first), in a folder made by
 * `cms init`; in the PostgreSQL run on a fresh database of its own. The tests run in order.
 */
describe('cms webhooks', { timeout: cliTimeout }, () => {
  let root: string;
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let r: Receiver;
  let hook: { id: string; secret: string };
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
    runCli(args, { cwd: dir, env: { ...cleanEnv, DATABASE_URL: database.url, ...env }, timeoutMs: cliTimeout });
  const json = async (args: string[]) => {
    const res = await cli([...args, '--json']);
    expect(res.code, res.stderr).toBe(0);
    return res.json().data;
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cms-webhooks-cli-'));
    dir = join(root, 'site');
    database = await createTestDatabase();
    r = await startReceiver();
    const init = await runCli(['init', 'site', '--yes'], { cwd: root, env: { ...cleanEnv, DATABASE_URL: database.url } });
    expect(init.code, init.stderr).toBe(0);
  });
  afterAll(async () => {
    await r.close();
    await database.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('create prints the whole secret once; list and get mask it', async () => {
    hook = await json(['webhooks', 'create', '--url', r.url, '--events', 'page.published,page.deleted', '--header', 'X-Team: web', '--header', 'Authorization: Bearer s3cret']);
    expect(hook).toMatchObject({ url: r.url, events: ['page.published', 'page.deleted'], headers: { 'X-Team': 'web', Authorization: 'Bearer s3cret' }, active: true });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await json(['webhooks', 'list']);
    expect(list).toEqual([expect.objectContaining({ id: hook.id, secret: `whsec_…${hook.secret.slice(-8)}` })]);
    expect((await json(['webhooks', 'get', hook.id])).secret).toBe(`whsec_…${hook.secret.slice(-8)}`);
    // Credential headers' values (tokens) are masked like the secret; other headers are shown as stored.
    expect(list[0].headers).toEqual({ 'X-Team': 'web', Authorization: '…cret' });
    expect((await json(['webhooks', 'get', hook.id])).headers).toEqual({ 'X-Team': 'web', Authorization: '…cret' });
    const human = await cli(['webhooks', 'list']);
    expect(human.stdout).toContain(hook.id);
    expect(human.stdout).not.toContain(hook.secret);
  });

  it('takes a header value from the environment with --header-env, so the token stays out of process lists', async () => {
    const created = await cli(['webhooks', 'create', '--url', r.url, '--events', 'page.published', '--header', 'X-Team: web', '--header-env', 'Authorization=RECEIVER_TOKEN', '--json'],
      { RECEIVER_TOKEN: 'Bearer from-the-env' });
    expect(created.code, created.stderr).toBe(0);
    const made = created.json().data;
    expect(made.headers).toEqual({ 'X-Team': 'web', Authorization: 'Bearer from-the-env' });
    const updated = await cli(['webhooks', 'update', made.id, '--header-env', 'X-Token=OTHER_TOKEN', '--json'], { OTHER_TOKEN: 'secret-token-abc123' });
    expect(updated.code, updated.stderr).toBe(0);
    expect((await json(['webhooks', 'get', made.id])).headers).toEqual({ 'X-Token': '…c123' });
    const unset = await cli(['webhooks', 'update', made.id, '--header-env', 'X-Token=NOT_SET_ANYWHERE']);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/the environment variable NOT_SET_ANYWHERE is not set/);
    const malformed = await cli(['webhooks', 'update', made.id, '--header-env', 'X-Token']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/--header-env must look like "Name=ENV_VAR"/);
    expect(await json(['webhooks', 'delete', made.id])).toEqual({ id: made.id, deleted: true });
  });

  it('refuses a malformed --header and unknown events as usage errors (exit 2), naming the known events', async () => {
    const usage = await cli(['webhooks', 'create', '--url', r.url, '--events', 'page.published', '--header', 'no colon']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--header must look like/);
    const bad = await cli(['webhooks', 'create', '--url', r.url, '--events', 'page.published,page.exploded', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.json().error.code).toBe('USAGE');
    expect(bad.stderr).toMatch(/^USAGE: option '--events <list>' argument 'page\.published,page\.exploded' is invalid\. "page\.exploded" is not allowed; use page\.created, .* or media\.deleted, comma-separated\./);
  });

  it('test queues a delivery; `cms webhooks process` sends it from the terminal', async () => {
    const queued = await json(['webhooks', 'test', hook.id]);
    expect(queued).toMatchObject({ event: 'page.updated', status: 'pending' });
    expect(r.received).toHaveLength(0);
    expect(await json(['webhooks', 'process'])).toEqual({ attempted: 1, succeeded: 1, failed: 0, exhausted: 0 });
    const [got] = r.received;
    expect(got!.body).toMatchObject({ event: 'page.updated', data: { test: true } });
    expect(got!.headers['x-webhook-delivery-id']).toBe(queued.id);
    expect(got!.headers['x-webhook-signature']).toBe('sha256=' + createHmac('sha256', hook.secret).update(got!.raw).digest('hex'));
    expect(got!.headers['x-team']).toBe('web');

    const deliveries = await json(['webhooks', 'deliveries', hook.id]);
    expect(deliveries).toEqual([expect.objectContaining({ id: queued.id, status: 'success', attempts: [expect.objectContaining({ statusCode: 200 })] })]);
    await json(['webhooks', 'redeliver', hook.id, queued.id]);
    expect((await json(['webhooks', 'process'])).succeeded).toBe(1);
    expect(r.received[1]!.headers['x-webhook-delivery-id']).toBe(queued.id);
  });

  it('update, regenerate-secret and process honouring CMS_WEBHOOK_BLOCK_PRIVATE', async () => {
    expect((await json(['webhooks', 'update', hook.id, '--inactive', '--clear-headers']))).toMatchObject({ active: false, headers: {} });
    expect((await json(['webhooks', 'update', hook.id, '--active', '--events', 'page.published'])).events).toEqual(['page.published']);
    const fresh = await json(['webhooks', 'regenerate-secret', hook.id]);
    expect(fresh.secret).toMatch(/^whsec_/);
    expect(fresh.secret).not.toBe(hook.secret);
    hook.secret = fresh.secret;

    await json(['webhooks', 'test', hook.id]);
    const blocked = await cli(['webhooks', 'process', '--json'], { CMS_WEBHOOK_BLOCK_PRIVATE: 'true' });
    expect(blocked.code, blocked.stderr).toBe(0);
    expect(blocked.json().data).toMatchObject({ attempted: 1, failed: 1 });
    const [last] = await json(['webhooks', 'deliveries', hook.id, '--limit', '1']);
    expect(last.attempts[0].error).toMatch(/^refused: /);
  });

  it('with `cms serve` running, a change made from the CLI reaches the receiver without `process`', async () => {
    const server = await startCliServer([], { cwd: dir, env: { ...cleanEnv, DATABASE_URL: database.url } });
    try {
      const before = r.received.length;
      // On PGlite the command goes through the server; on PostgreSQL it commits here and the
      // server hears of it by NOTIFY. Either way the server sends it at once.
      const queued = await json(['webhooks', 'test', hook.id]);
      const got = await r.waitFor(before + 1, 60_000);
      expect(got[before]!.headers['x-webhook-delivery-id']).toBe(queued.id);
      expect(got[before]!.headers['x-webhook-signature']).toBe('sha256=' + createHmac('sha256', hook.secret).update(got[before]!.raw).digest('hex'));
    } finally {
      const stopped = await server.stop();
      expect(stopped.code, stopped.stderr).toBe(0);
    }
  });

  it('delete removes it', async () => {
    expect(await json(['webhooks', 'delete', hook.id])).toEqual({ id: hook.id, deleted: true });
    const gone = await cli(['webhooks', 'get', hook.id, '--json']);
    expect(gone.code).toBe(1);
    expect(gone.json().error.code).toBe('NOT_FOUND');
  });
});
