import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli, startCliServer, type CliResult } from '../helpers/cli.js';

/** Generous: each CLI run starts Node and opens the database, and CI machines may be busy. */
const cliTimeout = 180_000;

/**
 * `cms serve` as a child process on an embedded (PGlite) data folder, and CLI commands beside it.
 * The bridge through .cms/server.json exists only for PGlite (PostgreSQL takes many processes), so
 * these processes never see the suite's DATABASE_URL.
 */
const embedded: NodeJS.ProcessEnv = { DATABASE_URL: undefined, CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, PORT: undefined, HOST: undefined };

/** A pid that no process has any more. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid!;
}

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('cms serve', { timeout: cliTimeout }, () => {
  let root: string;
  let dir: string;
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> => runCli(args, { cwd: dir, env: { ...embedded, ...env }, timeoutMs: cliTimeout });
  const dataFile = (name: string) => join(dir, '.cms', name);

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cms-serve-'));
    dir = join(root, 'site');
    const init = await runCli(['init', 'site', '--yes'], { cwd: root, env: embedded, timeoutMs: cliTimeout });
    expect(init.code, init.stderr).toBe(0);
  }, cliTimeout);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  describe('while it runs', () => {
    let server: Awaited<ReturnType<typeof startCliServer>>;
    let publicKey: { id: string; key: string };
    beforeAll(async () => { server = await startCliServer([], { cwd: dir, env: embedded }); }, cliTimeout);
    afterAll(async () => { await server?.stop(); }, cliTimeout);

    it('answers the health check and a JSON error for unknown routes', async () => {
      const health = await fetch(`${server.url}/api/v1/health`);
      expect(health.status).toBe(200);
      expect(health.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await health.json()).toEqual({ status: 'ok' });

      const missing = await fetch(`${server.url}/api/v1/no-such-thing`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await missing.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    });

    it('says in the data folder where CLI commands can reach it', () => {
      const info = JSON.parse(readFileSync(dataFile('server.json'), 'utf8'));
      expect(info).toMatchObject({ pid: server.pid, url: server.url });
      expect(JSON.parse(readFileSync(dataFile('db.lock'), 'utf8'))).toMatchObject({ pid: server.pid });
    });

    it('runs CLI commands for the CLI, which cannot open the database itself now', async () => {
      const created = await cli(['keys', 'create', '--type', 'public', '--json']);
      expect(created.code, created.stderr).toBe(0);
      publicKey = created.json().data;
      expect(publicKey.key).toMatch(/^svc_pk_/);

      const listed = await cli(['keys', 'list']);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(publicKey.id);

      const status = await cli(['db', 'status', '--json']);
      expect(status.json().data).toMatchObject({ driver: 'pglite', via: 'server' });
    });

    it('passes operation errors through with their code', async () => {
      const r = await cli(['keys', 'revoke', '00000000-0000-4000-8000-000000000000', '--json']);
      expect(r.code).toBe(1);
      expect(r.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.stringContaining('not found') } });
    });

    it('a second cms serve on the same folder fails at once with a clear message', async () => {
      const second = await cli(['serve', '--port', '0']);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/already running/);
      expect(second.stderr).toContain(String(server.pid));
      expect(second.stdout).toBe('');
    });

    it('SIGTERM stops it with exit code 0 and it cleans up after itself', async () => {
      const stopped = await server.stop('SIGTERM');
      expect(stopped.code, stopped.stderr).toBe(0);
      expect(existsSync(dataFile('server.json'))).toBe(false);
      expect(existsSync(dataFile('db.lock'))).toBe(false);
    });

    it('afterwards the CLI opens the data folder itself and sees what was written through the server', async () => {
      const status = await cli(['db', 'status', '--json']);
      expect(status.code, status.stderr).toBe(0);
      expect(status.json().data).toMatchObject({ via: 'local' });
      const keys = await cli(['keys', 'list', '--json']);
      expect(keys.json().data.map((k: { id: string }) => k.id)).toContain(publicKey.id);
    });
  });

  it('ignores a server.json and a db.lock left behind by a process that died', async () => {
    const pid = await deadPid();
    writeFileSync(dataFile('server.json'), JSON.stringify({ pid, url: 'http://127.0.0.1:9', token: 'stale', startedAt: new Date().toISOString() }));
    writeFileSync(dataFile('db.lock'), JSON.stringify({ pid, purpose: 'cms serve', at: new Date().toISOString() }));
    const r = await cli(['db', 'status', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().data).toMatchObject({ driver: 'pglite', via: 'local' });
    rmSync(dataFile('server.json'), { force: true });
  });

  it('listens where PORT and HOST say, and stops on SIGINT too', async () => {
    const port = await freePort();
    const child = spawnCli(['serve'], { cwd: dir, env: { ...embedded, PORT: String(port), HOST: 'localhost' } });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d) => {
          stdout += d;
          const m = /(http:\/\/\S+)/.exec(stdout);
          if (m) resolve(m[1]!);
        });
        void exited.then((code) => reject(new Error(`cms serve exited with ${code}\n${stderr}`)));
      });
      expect(url).toBe(`http://localhost:${port}`);
      expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);
      child.kill('SIGINT');
      expect(await exited, stderr).toBe(0);
      expect(existsSync(dataFile('server.json'))).toBe(false);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  describe('a port that is taken', () => {
    let squatter: ReturnType<typeof createServer>;
    let taken: number;
    beforeAll(async () => {
      squatter = createServer();
      await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
      taken = (squatter.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => { squatter.close(() => resolve()); }));

    /** Runs `cms serve` until it exits, or until it prints a URL (it serves somewhere: stopped at once). */
    const serveUntilExitOrUrl = (args: string[], env: NodeJS.ProcessEnv) => new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawnCli(['serve', ...args], { cwd: dir, env: { ...embedded, ...env } });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (d) => { stderr += d; });
      child.stdout.on('data', (d) => {
        stdout += d;
        if (/http:\/\//.test(stdout)) child.kill('SIGTERM');
      });
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

    it('--port P fails with "address in use", names the address, and exits 1 (never another port)', async () => {
      const r = await serveUntilExitOrUrl(['--port', String(taken)], {});
      expect(r.stdout).toBe('');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Address in use: 127.0.0.1:${taken}`);
      expect(r.stderr).toContain('--port 0');
      expect(existsSync(dataFile('server.json'))).toBe(false);
      expect(existsSync(dataFile('db.lock'))).toBe(false);
    });

    it('so does a port from PORT', async () => {
      const r = await serveUntilExitOrUrl([], { PORT: String(taken) });
      expect(r.stdout).toBe('');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Address in use: 127.0.0.1:${taken}`);
    });
  });

  it('cms stop ends the server of this folder (requests in flight finish) and waits for it; with none running it says so', async () => {
    const server = await startCliServer([], { cwd: dir, env: embedded });
    const stopped = await cli(['stop', '--json']);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.json().data).toEqual({ stopped: true, pid: server.pid, url: server.url });
    // Ended by the time `cms stop` returned: gone, its files removed, with its own clean exit.
    expect(() => process.kill(server.pid, 0)).toThrow();
    expect(existsSync(dataFile('server.json'))).toBe(false);
    const ended = await server.stop();
    expect(ended.code).toBe(0);
    expect(ended.stderr).toContain('Shutting down');
    const again = await cli(['stop']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^No cms serve is running on .*\.cms/);
    expect((await cli(['stop', '--timeout', '0'])).code).toBe(2);
  });

  it('CMS_DATA_DIR points the CLI at another data folder', async () => {
    const copy = join(root, 'copy-of-data');
    cpSync(join(dir, '.cms'), copy, { recursive: true });
    const r = await cli(['db', 'status', '--json'], { CMS_DATA_DIR: copy });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().data.database).toBe(`${copy}/db (PGlite)`);
    const keys = await cli(['keys', 'list', '--json'], { CMS_DATA_DIR: copy });
    expect(keys.json().data).toHaveLength(1);
  });
});
