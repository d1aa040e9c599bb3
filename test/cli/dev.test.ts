import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';

const cliTimeout = 180_000;
const cleanEnv: NodeJS.ProcessEnv = { CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, CMS_PASSWORD: undefined, CMS_BASE_URL: undefined, PORT: undefined, HOST: undefined };

/** Waits until `check` passes (it throws until then). */
async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try { return await check(); } catch (e) { if (Date.now() > deadline) throw e; }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** `cms dev` (issue 18): the built CLI as a child process in a temporary project. */
describe(`cms dev (${testDriver})`, { timeout: cliTimeout }, () => {
  let root: string;
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const env = (): NodeJS.ProcessEnv => ({ ...cleanEnv, DATABASE_URL: database.url });
  const faqFile = () => join(dir, 'schemas', 'collections', 'faq.json');
  const typesFile = () => join(dir, 'src', 'cms-types.ts');

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cms-dev-'));
    dir = join(root, 'site');
    database = await createTestDatabase();
    const init = await runCli(['init', 'site', '--yes'], { cwd: root, env: env(), timeoutMs: cliTimeout });
    expect(init.code, init.stderr).toBe(0);
    const configFile = join(dir, 'cms.config.json');
    writeFileSync(configFile, JSON.stringify({ ...JSON.parse(readFileSync(configFile, 'utf8')), types: { out: 'src/cms-types.ts' } }, null, 2));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(root, { recursive: true, force: true });
  });

  /** Starts `cms dev` and resolves with its URL once it printed it. */
  function startDev(args: string[]) {
    const child = spawnCli(['dev', '--port', '0', ...args], { cwd: dir, env: env() });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const exited = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
    const started = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        stdout += d;
        const m = /at (https?:\/\/\S+)/.exec(stdout);
        if (m) resolve(m[1]!);
      });
      child.on('close', (code) => reject(new Error(`cms dev exited with ${code}\n${stderr}`)));
    });
    return { started, exited, output: () => ({ stdout, stderr }), stop: () => { child.kill('SIGTERM'); return exited; } };
  }

  it('pushes schemas/ on every change, keeps the last good schema when a file is broken, and regenerates the types file', async () => {
    const devServer = startDev([]);
    const url = await devServer.started;
    try {
      const { stdout } = devServer.output();
      expect(stdout).toContain(`API:           ${url}/api/v1`);
      expect(stdout).toContain(`Admin:         ${url}/admin/`);
      expect(stdout).toContain(`API reference: ${url}/api/docs`);
      expect((await fetch(`${url}/admin/`)).status).toBe(200);
      expect((await fetch(`${url}/api/docs`)).status).toBe(200);
      // The starter schemas were pushed at start, and the types written.
      await eventually(() => expect(readFileSync(typesFile(), 'utf8')).toContain('landing-page'));

      const key = await runCli(['keys', 'create', '--type', 'public', '--json'], { cwd: dir, env: env(), timeoutMs: cliTimeout });
      expect(key.code, key.stderr).toBe(0);
      const headers = { 'x-api-key': key.json().data.key };
      expect((await fetch(`${url}/api/v1/collections/faq`, { headers })).status).toBe(404);

      writeFileSync(faqFile(), JSON.stringify({ slug: 'faq', name: 'FAQ', fields: [{ name: 'question', type: 'text' }] }));
      await eventually(async () => expect((await fetch(`${url}/api/v1/collections/faq`, { headers })).status).toBe(200));
      await eventually(() => expect(readFileSync(typesFile(), 'utf8')).toContain('Fields of FAQ (`faq`)'));
      const typesBefore = readFileSync(typesFile(), 'utf8');

      // A broken field: problems with file and JSON path; the old schema still answers.
      writeFileSync(faqFile(), JSON.stringify({ slug: 'faq', name: 'FAQ', fields: [{ name: 'question', type: 'nonsense' }] }));
      await eventually(() => expect(devServer.output().stderr).toMatch(/schemas\/collections\/faq\.json: fields\[0\]\.type: unknown field type "nonsense"/));
      expect((await fetch(`${url}/api/v1/collections/faq`, { headers })).status).toBe(200);
      // A file that is not JSON at all.
      writeFileSync(faqFile(), '{ "slug": "faq", ');
      await eventually(() => expect(devServer.output().stderr).toMatch(/schemas\/collections\/faq\.json: \(file\): not valid JSON/));
      expect((await fetch(`${url}/api/v1/collections/faq`, { headers })).status).toBe(200);
      expect(readFileSync(typesFile(), 'utf8')).toBe(typesBefore);

      // Fixed: pushed, and the types follow.
      writeFileSync(faqFile(), JSON.stringify({ slug: 'faq', name: 'FAQ', fields: [{ name: 'question', type: 'text' }, { name: 'answer', type: 'textarea' }] }));
      await eventually(() => expect(readFileSync(typesFile(), 'utf8')).toMatch(/interface FaqItemFields \{[^}]*answer/));
      const openapi = await (await fetch(`${url}/api/v1/openapi.json`, { headers })).text();
      expect(openapi).toContain('answer');
    } finally {
      expect(await devServer.stop()).toBe(0);
    }
    expect(devServer.output().stderr).toContain('Shutting down');
  });

  it('--https serves over TLS with a self-signed certificate', async () => {
    const devServer = startDev(['--https']);
    const url = await devServer.started;
    try {
      expect(url).toMatch(/^https:\/\//);
      const status = await new Promise<number | undefined>((resolve, reject) => {
        request(`${url}/admin/`, { rejectUnauthorized: false }, (res) => { res.resume(); resolve(res.statusCode); }).on('error', reject).end();
      });
      expect(status).toBe(200);
      await expect(fetch(`${url}/admin/`)).rejects.toThrow();
    } finally {
      await devServer.stop();
    }
    expect(existsSync(join(dir, '.cms', 'server.json'))).toBe(false);
  });

  it('a taken port is an error, as for cms serve, never another port, and --json stays one document', async () => {
    const { createServer } = await import('node:net');
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    try {
      const run = await runCli(['dev', '--port', String(port), '--json'], { cwd: dir, env: env(), timeoutMs: cliTimeout });
      expect(run.code).toBe(1);
      expect(run.json().error).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining(`Address in use: 127.0.0.1:${port} is already taken by another process`) });
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
