import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCliServer, type CliResult } from '../helpers/cli.js';

const cliTimeout = 180_000;

/** The data folder is PGlite's here: these processes never see the suite's DATABASE_URL. */
const embedded: NodeJS.ProcessEnv = { DATABASE_URL: undefined, CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, PORT: undefined, HOST: undefined };

/** Every entry under the folder (itself included) whose mode is not 0700 (folders) or 0600 (files). */
function looseEntries(dir: string): string[] {
  const loose: string[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    const mode = stat.mode & 0o777;
    if (stat.isDirectory()) {
      if (mode !== 0o700) loose.push(`${relative(dir, path) || '.'} ${mode.toString(8)}`);
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else if (mode !== 0o600) {
      loose.push(`${relative(dir, path)} ${mode.toString(8)}`);
    }
  };
  visit(dir);
  return loose;
}

function countEntries(dir: string): number {
  let n = 0;
  const visit = (path: string) => {
    n++;
    if (lstatSync(path).isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
  };
  visit(dir);
  return n;
}

/** Loosens every folder and file the way an older version (or a careless copy) left them. */
function loosen(path: string): void {
  const stat = lstatSync(path);
  chmodSync(path, stat.isDirectory() ? 0o777 : 0o666);
  if (stat.isDirectory()) for (const entry of readdirSync(path)) loosen(join(path, entry));
}

/** The data folder holds password hashes and webhook secrets: nobody but its owner may read it. */
describe('the data folder is private to its owner', { timeout: cliTimeout }, () => {
  let root: string;
  let dir: string;
  let data: string;
  const cli = (args: string[]): Promise<CliResult> => runCli(args, { cwd: dir, env: embedded, timeoutMs: cliTimeout });

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'cms-modes-'));
    dir = join(root, 'site');
    data = join(dir, '.cms');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('after cms init, schema push and a page create: folders 0700, files 0600, everything under .cms', async () => {
    const init = await runCli(['init', 'site', '--yes'], { cwd: root, env: embedded, timeoutMs: cliTimeout });
    expect(init.code, init.stderr).toBe(0);
    expect(looseEntries(data)).toEqual([]);
    const push = await cli(['schema', 'push']);
    expect(push.code, push.stderr).toBe(0);
    const page = await cli(['pages', 'create', '--type', 'landing-page', '--name', 'Home', '--slug', 'home', '--json']);
    expect(page.code, page.stderr).toBe(0);
    expect(countEntries(join(data, 'db'))).toBeGreaterThan(100); // PGlite's whole cluster is checked
    expect(looseEntries(data)).toEqual([]);
    // Nothing to tighten, so nothing to warn about.
    expect(page.stderr).not.toMatch(/warning/);
  });

  it('after a cms serve that stored a media file and wrote to the database', async () => {
    const server = await startCliServer([], { cwd: dir, env: embedded });
    let stopped: { code: number | null; stderr: string } | undefined;
    try {
      const key = await cli(['keys', 'create', '--type', 'secret', '--permissions', 'media:write,content:write', '--json']);
      expect(key.code, key.stderr).toBe(0);
      const form = new FormData();
      form.set('file', new Blob(['%PDF-1.4\n%private bytes\n'], { type: 'application/pdf' }), 'notes.pdf');
      const upload = await fetch(`${server.url}/api/v1/media`, {
        method: 'POST', headers: { 'x-api-key': key.json().data.key, 'idempotency-key': 'modes-1' }, body: form,
      });
      expect(upload.status, await upload.clone().text()).toBe(201);
      const page = await fetch(`${server.url}/api/v1/pages`, {
        method: 'POST',
        headers: { 'x-api-key': key.json().data.key, 'idempotency-key': 'modes-2', 'content-type': 'application/json' },
        body: JSON.stringify({ pageTypeSlug: 'landing-page', name: 'About', slug: 'about' }),
      });
      expect(page.status, await page.clone().text()).toBe(201);
    } finally {
      stopped = await server.stop('SIGTERM');
    }
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(readdirSync(join(data, 'media', 'default'))).toHaveLength(1);
    expect(looseEntries(data)).toEqual([]);
  });

  it('tightens a folder left readable by others when it opens it, with one warning on stderr', async () => {
    loosen(data);
    expect(looseEntries(data).length).toBeGreaterThan(100);
    const status = await cli(['db', 'status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.json().data).toMatchObject({ driver: 'pglite' });
    expect(status.stderr.match(/warning: .*could be read by other users.*now private/g)).toHaveLength(1);
    expect(looseEntries(data)).toEqual([]);
    const again = await cli(['db', 'status', '--json']);
    expect(again.stderr).not.toMatch(/warning/);
  });

  it('walks every database file again after an engine that did not close (no db.tightened mark)', async () => {
    // A clean close leaves the mark, and the next open skips the walk over every file.
    const mark = join(data, 'db.tightened');
    expect(existsSync(mark)).toBe(true);
    // Files loosened as PGlite creates them, in folders that stayed private, by a process that died:
    // it took the mark away when it opened the database and never put it back.
    const files: string[] = [];
    const collect = (path: string) => {
      for (const entry of readdirSync(path, { withFileTypes: true })) {
        if (entry.isDirectory()) collect(join(path, entry.name));
        else files.push(join(path, entry.name));
      }
    };
    collect(join(data, 'db'));
    for (const file of files) chmodSync(file, 0o666);
    rmSync(mark);
    expect(looseEntries(data).length).toBeGreaterThan(100);
    const status = await cli(['db', 'status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(looseEntries(data)).toEqual([]);
    expect(existsSync(mark)).toBe(true);
  });
});
