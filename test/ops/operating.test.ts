import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCliServer } from '../helpers/cli.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';
import { createTestCms, type TestCms } from '../helpers/engine.js';
import { serveOverSocket } from '../helpers/http.js';
import { startFakeButter } from '../fakes/buttercms/server.js';
import { createImportHarness } from '../importers/support.js';
import { emitEvents } from '../webhooks/emit.js';
import { startReceiver } from '../webhooks/receiver.js';

/** Generous: each CLI run starts Node and opens the database, and the machine may be busy. */
const cliTimeout = 180_000;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Server = Awaited<ReturnType<typeof startCliServer>>;

/**
 * `cms serve` as a child process on this run's database (an embedded data folder, or a fresh
 * PostgreSQL database when DATABASE_URL is set), with the settings of docs/operating.md.
 */
describe(`operating cms serve (${testDriver})`, { timeout: cliTimeout }, () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let env: NodeJS.ProcessEnv;
  const password = 'correct-horse-battery-9';
  let publicKey: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-ops-'));
    database = await createTestDatabase();
    env = {
      DATABASE_URL: database.url, CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, PORT: undefined, HOST: undefined,
      CMS_METRICS: undefined, CMS_METRICS_TOKEN: undefined, CMS_LOG_LEVEL: undefined, CMS_SHUTDOWN_DRAIN_MS: undefined,
    };
    const user = await runCli(['users', 'create', '--email', 'ops@example.com', '--role', 'owner'], { cwd: dir, env: { ...env, CMS_PASSWORD: password }, timeoutMs: cliTimeout });
    expect(user.code, user.stderr).toBe(0);
    const key = await runCli(['keys', 'create', '--type', 'public', '--json'], { cwd: dir, env, timeoutMs: cliTimeout });
    expect(key.code, key.stderr).toBe(0);
    publicKey = key.json().data.key;
  }, cliTimeout);
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('with metrics on, a metrics token and a drain period', () => {
    let server: Server;
    let stopped: { code: number | null; stdout: string; stderr: string } | null = null;
    const token = 'metrics-token-42';
    beforeAll(async () => {
      server = await startCliServer([], { cwd: dir, env: { ...env, CMS_METRICS: 'on', CMS_METRICS_TOKEN: token, CMS_SHUTDOWN_DRAIN_MS: '4000' } });
    }, cliTimeout);
    afterAll(async () => { if (!stopped) await server?.stop(); }, cliTimeout);

    it('answers /healthz and /readyz without a key, in JSON, never cached, with a request id', async () => {
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(health.headers.get('content-type')).toMatch(/^application\/json/);
      expect(health.headers.get('cache-control')).toBe('no-store');
      expect(health.headers.get('x-request-id')).toMatch(uuid);
      expect(await health.json()).toEqual({ status: 'ok' });

      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(ready.headers.get('cache-control')).toBe('no-store');
      expect(await ready.json()).toEqual({ status: 'ready', checks: { database: { ok: true }, migrations: { ok: true }, storage: { ok: true } } });
      // No rate-limit headers: no limit counts them.
      expect(ready.headers.get('ratelimit-limit')).toBeNull();
    });

    it('echoes a valid X-Request-Id and replaces an invalid one', async () => {
      const echoed = await fetch(`${server.url}/api/v1/no-such-thing`, { headers: { 'x-request-id': 'lb-7f3a.42' } });
      expect(echoed.status).toBe(404);
      expect(echoed.headers.get('x-request-id')).toBe('lb-7f3a.42');
      const replaced = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'has spaces in it' } });
      expect(replaced.headers.get('x-request-id')).toMatch(uuid);
      const tooLong = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'x'.repeat(129) } });
      expect(tooLong.headers.get('x-request-id')).toMatch(uuid);
    });

    it('serves /metrics only with the bearer token, counting requests by route pattern', async () => {
      for (let i = 0; i < 2; i++) {
        const list = await fetch(`${server.url}/api/v1/pages`, { headers: { 'x-api-key': publicKey } });
        expect(list.status).toBe(200);
      }
      expect((await fetch(`${server.url}/admin/p/default/pages`)).status).toBe(200);
      const missing = await fetch(`${server.url}/api/v1/pages/secret-slug-123`, { headers: { 'x-api-key': publicKey } });
      expect(missing.status).toBe(404);

      expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const text = await res.text();
      expect(text).toContain('cms_http_requests_total{method="GET",route="/api/v1/pages",status="200"} 2');
      expect(text).toContain('cms_http_requests_total{method="GET",route="/api/v1/pages/:slug",status="404"} 1');
      expect(text).toContain('cms_http_requests_total{method="GET",route="/healthz",status="200"}');
      expect(text).toContain('cms_http_requests_total{method="GET",route="(unmatched)",status="404"}');
      expect(text).toMatch(/cms_http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/api\/v1\/pages",status="200"\} \d/);
      expect(text).not.toContain('secret-slug-123');
      expect(text).toMatch(/cms_response_cache_total\{result="miss"\} [1-9]/);
      expect(text).toMatch(/cms_response_cache_total\{result="hit"\} [1-9]/);
      expect(text).toMatch(/cms_db_pool_max_connections\{driver="(pglite|postgres)"\} (1|10)/);
      expect(text).toContain('cms_webhook_outbox_depth 0');
      expect(text).toContain('# TYPE cms_webhook_deliveries_total counter');
      expect(text).toContain('# TYPE cms_migration_runs_total counter');
      expect(text).toContain('cms_process_resident_memory_bytes');
    });

    it('logs one JSON line per request without keys, cookies or passwords; drains, then stops', async () => {
      const signIn = await fetch(`${server.url}/api/v1/admin/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': publicKey, cookie: 'cms_session=not-a-real-session-cookie', authorization: 'Bearer some-bearer-secret' },
        body: JSON.stringify({ email: 'ops@example.com', password }),
      });
      expect(signIn.status).toBe(200);
      const session = /cms_session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1];
      expect(session).toBeTruthy();
      const pages = await fetch(`${server.url}/api/v1/admin/pages`, { headers: { cookie: `cms_session=${session}`, 'x-request-id': 'admin-list-1' } });
      expect(pages.status).toBe(200);

      // SIGTERM: for the drain period /readyz answers 503 (the process still lives), then it stops.
      const exited = server.stop('SIGTERM');
      let draining: Response | null = null;
      for (let i = 0; i < 40 && !draining; i++) {
        const r = await fetch(`${server.url}/readyz`);
        if (r.status === 503) draining = r;
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(draining?.headers.get('cache-control')).toBe('no-store');
      expect(await draining?.json()).toEqual({
        status: 'not ready',
        checks: { database: { ok: true }, migrations: { ok: true }, storage: { ok: true }, shutdown: { ok: false, reason: 'the server is shutting down' } },
      });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      stopped = await exited;
      expect(stopped.code, stopped.stderr).toBe(0);

      // Standard output holds the command's own line; the log lines are on standard error.
      expect(stopped.stdout).toBe(`cms serving project "default" at ${server.url}\n`);
      const lines = stopped.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
      const requests = lines.filter((l) => l.msg === 'request');
      expect(requests.length).toBeGreaterThanOrEqual(10);
      for (const line of requests) {
        expect(line).toMatchObject({ level: 'info', method: expect.any(String), route: expect.any(String), status: expect.any(Number), durationMs: expect.any(Number), requestId: expect.any(String) });
      }
      const login = requests.find((l) => l.route === '/api/v1/admin/auth/login');
      expect(login).toMatchObject({ method: 'POST', status: 200 });
      expect(requests.find((l) => l.requestId === 'admin-list-1')).toMatchObject({ route: '/api/v1/admin/pages', status: 200, userId: expect.stringMatching(uuid), project: 'default' });
      expect(requests.find((l) => l.route === '/api/v1/pages' && l.status === 200)).toMatchObject({ keyId: expect.any(String), projectId: expect.stringMatching(uuid) });
      expect(requests.find((l) => l.route === '/api/v1/pages/:slug')).toMatchObject({ status: 404 });
      expect(requests.find((l) => l.route === '/admin/**')).toMatchObject({ method: 'GET', status: 200 });
      expect(requests.some((l) => String(l.route).includes('/p/default'))).toBe(false);
      for (const secret of [publicKey, password, 'not-a-real-session-cookie', 'some-bearer-secret', session!, token, 'secret-slug-123']) {
        expect(stopped.stdout + stopped.stderr).not.toContain(secret);
      }
    });
  });

  describe('with metrics off and CMS_LOG_LEVEL=silent', () => {
    it('answers /metrics 404 and writes no log line', async () => {
      const server = await startCliServer([], { cwd: dir, env: { ...env, CMS_LOG_LEVEL: 'silent' } });
      const res = await fetch(`${server.url}/metrics`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No such route; the API lives under /api/v1/' } });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const stopped = await server.stop();
      expect(stopped.code, stopped.stderr).toBe(0);
      expect(stopped.stdout).toBe(`cms serving project "default" at ${server.url}\n`);
      expect(stopped.stderr).not.toMatch(/^\{/m);
    });
  });
});

/** The real server over a socket, in this process: readiness of an engine whose database goes away; several engines at once. */
describe('readiness and metrics of engines in one process', () => {
  let a: TestCms;
  let b: TestCms;
  beforeAll(async () => {
    a = await createTestCms({ config: { metrics: { enabled: true, token: null } } });
    b = await createTestCms({ config: { metrics: { enabled: true, token: null } } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close().catch(() => {});
  });

  it('keeps each engine\'s metrics in its own registry', async () => {
    const one = await serveOverSocket(a.cms);
    const two = await serveOverSocket(b.cms);
    try {
      for (let i = 0; i < 3; i++) await one.fetch('/healthz');
      await two.fetch('/healthz');
      expect(await (await one.fetch('/metrics')).text()).toContain('cms_http_requests_total{method="GET",route="/healthz",status="200"} 3');
      expect(await (await two.fetch('/metrics')).text()).toContain('cms_http_requests_total{method="GET",route="/healthz",status="200"} 1');
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('shows the webhook outbox depth and counts delivery outcomes', async () => {
    const http = await serveOverSocket(b.cms);
    let answered = 0;
    const r = await startReceiver((_got, res) => { res.writeHead(answered++ === 0 ? 200 : 500).end(); });
    const scrape = async () => (await http.fetch('/metrics')).text();
    try {
      await b.run('webhooks.create', { url: r.url, events: ['collection_item.published'] });
      await b.run(emitEvents as never, { kind: 'collection_item.published', count: 2 });
      expect(await scrape()).toContain('cms_webhook_outbox_depth 2');
      const summary = await b.cms.services.webhooks.processDue();
      expect(summary).toMatchObject({ attempted: 2, succeeded: 1, failed: 1 });
      const text = await scrape();
      expect(text).toContain('cms_webhook_deliveries_total{outcome="succeeded"} 1');
      expect(text).toContain('cms_webhook_deliveries_total{outcome="failed"} 1');
      // The failed one waits for its retry.
      expect(text).toContain('cms_webhook_outbox_depth 1');
    } finally {
      await r.close();
      await http.close();
    }
  });

  it('answers /readyz 503 naming the database once it has gone away, /healthz still 200', async () => {
    const http = await serveOverSocket(a.cms);
    try {
      expect((await http.fetch('/readyz')).status).toBe(200);
      await a.cms.handle.close();
      const res = await http.fetch('/readyz');
      expect(res.status).toBe(503);
      const body = (await res.json()) as { status: string; checks: Record<string, { ok: boolean }> };
      expect(body.status).toBe('not ready');
      expect(body.checks.database).toEqual({ ok: false, reason: expect.any(String) });
      // The driver's words, not drizzle's "Failed query: <sql>" (which says nothing of why).
      const reasons = [body.checks.database, body.checks.migrations].map((c) => (c as { reason?: string }).reason ?? '');
      for (const reason of reasons) expect(reason).not.toMatch(/Failed query|select /);
      expect(body.checks.migrations?.ok).toBe(false);
      expect(body.checks.storage).toEqual({ ok: true });
      expect((await http.fetch('/healthz')).status).toBe(200);
    } finally {
      await http.close();
    }
  });
});

describe('migration runs in the metrics', () => {
  it('counts ButterCMS imports by outcome', { timeout: 120_000 }, async () => {
    const h = await createImportHarness();
    const butter = await startFakeButter();
    const refusing = await startFakeButter({ mode: 'bad-token' });
    const http = await serveOverSocket(h.cms);
    try {
      expect((await h.migrate(butter, 'dry_run')).status).toBe('completed');
      expect((await h.migrate(butter, 'schema_only')).status).toBe('completed');
      expect((await h.migrate(refusing, 'full')).status).toBe('failed');
      const text = await h.cms.metrics!.registry.metrics();
      expect(text).toContain('cms_migration_runs_total{outcome="completed"} 2');
      expect(text).toContain('cms_migration_runs_total{outcome="failed"} 1');
    } finally {
      await http.close();
      await refusing.close();
      await butter.close();
      await h.close();
    }
  });
});
