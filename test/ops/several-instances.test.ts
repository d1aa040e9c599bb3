import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCliServer } from '../helpers/cli.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';
import { startFakeButter, type FakeButter } from '../fakes/buttercms/server.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

/** Generous: each CLI run starts Node and opens the database, and the machine may be busy. */
const cliTimeout = 180_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Server = Awaited<ReturnType<typeof startCliServer>>;

/**
 * Two `cms serve` processes on one PostgreSQL database, as behind a load balancer
 * (docs/operating.md, "Several instances"). Only PostgreSQL can be shared by several processes:
 * on the embedded database the suite below is not defined (not applicable, not skipped); what is
 * tested there instead is that a second server on the same data folder is refused.
 */
if (testDriver === 'postgres') {
  describe('two cms serve processes on one PostgreSQL database', { timeout: cliTimeout }, () => {
    let root: string;
    let dir: string;
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let env: NodeJS.ProcessEnv;
    let receiver: Receiver;
    let butter: FakeButter;
    let a: Server;
    let b: Server;
    let bStopped = false;
    let session: string;
    let publicKey: string;
    let homeId: string;
    const password = 'correct-horse-battery-9';

    const cli = async (args: string[], extra: NodeJS.ProcessEnv = {}) => {
      const r = await runCli(args, { cwd: dir, env: { ...env, ...extra }, timeoutMs: cliTimeout });
      expect(r.code, r.stderr).toBe(0);
      return r;
    };
    const login = (server: Server, email: string, pw: string) => fetch(`${server.url}/api/v1/admin/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: pw }),
    });
    const admin = async (server: Server, method: string, path: string, body: unknown = method === 'GET' ? undefined : {}) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { cookie: `cms_session=${session}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: await res.json() as any };
    };
    const publicGet = async (server: Server, path: string) => {
      const res = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': publicKey } });
      return { res, body: await res.json() as any };
    };
    const sql = () => postgres(database.url!, { max: 1, onnotice: () => {} });

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'cms-instances-'));
      dir = join(root, 'site');
      database = await createTestDatabase();
      env = {
        DATABASE_URL: database.url, CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, PORT: undefined, HOST: undefined,
        CMS_METRICS: undefined, CMS_LOG_LEVEL: undefined,
      };
      receiver = await startReceiver();
      butter = await startFakeButter();
      const init = await runCli(['init', 'site', '--yes'], { cwd: root, env, timeoutMs: cliTimeout });
      expect(init.code, init.stderr).toBe(0);
      await cli(['schema', 'push']);
      await cli(['users', 'create', '--email', 'owner@example.com', '--role', 'owner'], { CMS_PASSWORD: password });
      await cli(['users', 'create', '--email', 'victim@example.com', '--role', 'editor'], { CMS_PASSWORD: password });
      publicKey = (await cli(['keys', 'create', '--type', 'public', '--json'])).json().data.key;
      await cli(['webhooks', 'create', '--url', receiver.url, '--events', 'page.created,page.updated,page.published', '--json']);
      homeId = (await cli(['pages', 'create', '--type', 'landing-page', '--name', 'Home', '--slug', 'home', '--fields', '{"headline":"Hi"}', '--json'])).json().data.id;
      await cli(['pages', 'publish', 'home']);
      // A page due two seconds from now; both servers start after it is due, so both schedulers
      // find it due on their first pass, at the same moment.
      await cli(['pages', 'create', '--type', 'landing-page', '--name', 'Due', '--slug', 'due', '--fields', '{"headline":"Due"}']);
      const at = new Date(Date.now() + 2000);
      await cli(['pages', 'schedule', 'due', '--at', at.toISOString()]);
      await sleep(Math.max(0, at.getTime() - Date.now() + 200));
      [a, b] = await Promise.all([
        startCliServer([], { cwd: dir, env }),
        startCliServer([], { cwd: dir, env }),
      ]);
      const signedIn = await login(a, 'owner@example.com', password);
      expect(signedIn.status).toBe(200);
      session = /cms_session=([^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')![1]!;
    }, cliTimeout);
    afterAll(async () => {
      await Promise.all([a?.stop(), bStopped ? undefined : b?.stop()]);
      await receiver?.close();
      await butter?.close();
      await database?.drop();
      rmSync(root, { recursive: true, force: true });
    }, cliTimeout);

    it('a session made on A works on B', async () => {
      const me = await admin(b, 'GET', '/api/v1/admin/pages');
      expect(me.status).toBe(200);
    });

    it('a write through A is read fresh through B at once, though B had it cached', async () => {
      const path = '/api/v1/pages/home';
      expect((await publicGet(b, path)).body.data.name).toBe('Home');
      // Cached on B now: the second read is the same answer.
      expect((await publicGet(b, path)).body.data.name).toBe('Home');
      expect((await admin(a, 'PUT', `/api/v1/admin/pages/${homeId}`, { name: 'Written through A' })).status).toBe(200);
      expect((await admin(a, 'POST', `/api/v1/admin/pages/${homeId}/publish`)).status).toBe(200);
      // The very next read on B, with no wait: B knows A is there, and reads only after a
      // revision poll begun after the read came, whether A's notice has arrived yet or not.
      expect((await publicGet(b, path)).body.data.name).toBe('Written through A');
      // And B keeps serving the fresh answer.
      expect((await publicGet(b, path)).body.data.name).toBe('Written through A');
    });

    it('a read on B right after a write by another server, whose notice has not come, is fresh: 30 rounds, each read at once', async () => {
      const path = '/api/v1/pages/home';
      const db = sql();
      try {
        for (let round = 1; round <= 30; round++) {
          expect((await publicGet(b, path)).body.data.fields.headline).not.toBe(`Round ${round}`);
          // The write as another server makes it, committed and counted in the revisions, but
          // its NOTIFY not sent (as it would be, a moment later): B can know of it only by asking.
          await db.begin(async (tx) => {
            await tx`update pages set published_content = jsonb_set(published_content, '{headline}', ${tx.json(`Round ${round}`)}) where slug = 'home'`;
            await tx`insert into content_revisions (project_id, slot, revision) select project_id, 63, 1 from pages where slug = 'home'
              on conflict (project_id, slot) do update set revision = content_revisions.revision + 1`;
          });
          expect((await publicGet(b, path)).body.data.fields.headline, `round ${round}`).toBe(`Round ${round}`);
        }
      } finally {
        await db.end();
      }
    });

    it('publishes a scheduled page exactly once, with both schedulers running', async () => {
      let published: any;
      for (let i = 0; i < 100 && !published; i++) {
        if (i) await sleep(200);
        published = receiver.received.find((r) => r.body?.event === 'page.published' && r.body?.data?.slug === 'due');
      }
      expect(published, 'the due page was published').toBeTruthy();
      // Time for a second (wrong) publication and its delivery to arrive.
      await sleep(3000);
      expect(receiver.received.filter((r) => r.body?.event === 'page.published' && r.body?.data?.slug === 'due')).toHaveLength(1);
      const versions = (await cli(['pages', 'versions', 'due', '--json'])).json().data;
      expect(versions.filter((v: { status: string }) => v.status === 'published')).toHaveLength(1);
      expect((await publicGet(b, '/api/v1/pages/due')).res.status).toBe(200);
    });

    it('delivers each event once, though both instances run the delivery job', async () => {
      // page.created x2 (home, due), page.published x3 (home by CLI, home through A, due by the
      // scheduler), page.updated x1 (home through A).
      await receiver.waitFor(6, 30_000);
      await sleep(3000);
      const ids = receiver.received.map((r) => r.headers['x-webhook-delivery-id']);
      expect(ids).toHaveLength(6);
      expect(new Set(ids).size).toBe(6);
      const events = receiver.received.map((r) => r.body.event).sort();
      expect(events).toEqual(['page.created', 'page.created', 'page.published', 'page.published', 'page.published', 'page.updated']);
    });

    it('five failed sign-ins spread over A and B lock the account on both', async () => {
      for (const server of [a, b, a, b, a]) expect((await login(server, 'victim@example.com', 'wrong')).status).toBe(401);
      for (const server of [b, a]) {
        const refused = await login(server, 'victim@example.com', password);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(((await refused.json()) as any).error.code).toBe('RATE_LIMITED');
      }
    });

    it('a ButterCMS migration started on A is followed on B', async () => {
      const created = await admin(a, 'POST', '/api/v1/admin/migrations', { sourcePlatform: 'buttercms', mode: 'dry_run', config: { apiKey: butter.token, apiUrl: butter.url } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.data.id;
      expect((await admin(a, 'POST', `/api/v1/admin/migrations/${id}/start`)).status).toBe(202);
      let seen: any;
      for (let i = 0; i < 300; i++) {
        seen = (await admin(b, 'GET', `/api/v1/admin/migrations/${id}`)).body.data;
        if (['completed', 'failed', 'paused'].includes(seen.status)) break;
        await sleep(200);
      }
      expect(seen).toMatchObject({ id, status: 'completed' });
      // Run by exactly one process: the one that took it (its runner names its process).
      const logs = (await admin(b, 'GET', `/api/v1/admin/migrations/${id}/logs?limit=1000`)).body.data;
      const runners = logs.filter((l: { message: string }) => l.message.startsWith('Started')).map((l: any) => l.data?.runner);
      expect(runners).toHaveLength(1);
    });

    it('drops every cached answer when its LISTEN connection is cut, and says so', async () => {
      const path = '/api/v1/pages/home';
      expect((await publicGet(b, path)).body.data.name).toBe('Written through A');
      const db = sql();
      try {
        // B's listening backend is cut, then a write is made whose notice B cannot hear (written
        // straight into the database, as a notice lost while B was reconnecting).
        const cut = await db`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen%'`;
        expect(cut.length).toBeGreaterThan(0);
        await db`update pages set published_content = jsonb_set(published_content, '{headline}', '"Lost notice"') where slug = 'home'`;
      } finally {
        await db.end();
      }
      let headline = '';
      const since = Date.now();
      while (headline !== 'Lost notice' && Date.now() - since < 10_000) {
        await sleep(50);
        headline = (await publicGet(b, path)).body.data.fields.headline;
      }
      expect(headline).toBe('Lost notice');
      // Server logs are JSON lines on standard error.
      const stopped = await b.stop();
      bStopped = true;
      expect(stopped.stderr).toMatch(/"level":"warn"[^\n]*LISTEN connection reconnected/);
    });
  });
} else {
  describe('several cms serve processes on the embedded database (one process only)', { timeout: cliTimeout }, () => {
    it('refuses a second server on the same data folder, naming the running one', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cms-instances-'));
      const env = { DATABASE_URL: undefined, CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, PORT: undefined, HOST: undefined };
      const first = await startCliServer([], { cwd: dir, env });
      try {
        const second = await runCli(['serve', '--port', '0'], { cwd: dir, env, timeoutMs: cliTimeout });
        expect(second.code).toBe(1);
        expect(second.stderr).toContain(`SERVER_BUSY: cms serve is already running on ${join(dir, '.cms')} (pid ${first.pid}, ${first.url})`);
      } finally {
        await first.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
