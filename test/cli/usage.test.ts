import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/** Generous: each CLI run starts Node and opens the database, and CI machines may be busy. */
const cliTimeout = 180_000;

/** What the CLI answers before it opens any database: usage, version, help, bad configuration. */
describe('cms usage and configuration errors', { timeout: cliTimeout }, () => {
  let dir: string;
  const cli = (args: string[], cwd = dir) => runCli(args, { cwd, env: { DATABASE_URL: undefined, CMS_PROJECT: undefined, PORT: undefined } });

  beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'cms-usage-')); });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--version prints the package version and exits 0', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const r = await cli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('--help lists the commands and exits 0', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const noun of ['init', 'serve', 'schema', 'keys', 'users', 'db']) expect(r.stdout).toMatch(new RegExp(`^\\s+${noun}\\b`, 'm'));
    expect(r.stdout).toContain('--json');
  });

  it('an unknown command exits 2 and says so on stderr', async () => {
    const r = await cli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
    expect(r.stdout).toBe('');
  });

  it('an unknown flag exits 2', async () => {
    const r = await cli(['keys', 'list', '--colour']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--colour'");
  });

  it('a usage error with --json is also one JSON document on stdout', async () => {
    const r = await cli(['keys', 'create', '--json']);
    expect(r.code).toBe(2);
    expect(r.json()).toEqual({ error: { code: 'USAGE', message: expect.stringContaining('--type') } });
  });

  it('an invalid config file is a clear error (exit 1), also when found by walking up', async () => {
    const project = join(dir, 'broken');
    mkdirSync(join(project, 'sub'), { recursive: true });
    writeFileSync(join(project, 'cms.config.json'), JSON.stringify({ project: 'Not A Slug', port: 3000 }));
    const r = await cli(['keys', 'list'], join(project, 'sub'));
    expect(r.code).toBe(1);
    const [first] = r.stderr.split('\n');
    expect(first).toMatch(/^CONFIG: .*cms\.config\.json is invalid: /);
    expect(first).toContain('project: must be a slug');
    expect(first).toContain('port');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a config file that is not JSON is a clear error', async () => {
    writeFileSync(join(dir, 'not-json.json'), '{ project: default }');
    const r = await cli(['keys', 'list', '--json', '--config', 'not-json.json']);
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({ code: 'CONFIG', message: expect.stringMatching(/not-json\.json is not valid JSON/) });
  });

  it('--config naming a missing file is an error, not a silent default', async () => {
    const r = await cli(['keys', 'list', '--config', 'nowhere.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^CONFIG: Config file .*nowhere\.json does not exist/);
  });

  it('a bad PORT in the environment is a clear error', async () => {
    const r = await runCli(['serve'], { cwd: dir, env: { DATABASE_URL: undefined, PORT: 'eighty' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^CONFIG: PORT must be a port number/);
  });
});
