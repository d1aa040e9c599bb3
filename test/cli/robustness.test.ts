import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliInProcess, spawnCli } from '../helpers/cli.js';

/**
 * What an audit of the command line found: empty and out-of-range values taken as none, a user's
 * schema files replaced by `cms init`, stack traces and INTERNAL for what is the machine's set-up,
 * a command hanging on a database host that never answers, byte order marks refused.
 */
describe('the CLI on odd input and a broken set-up', { timeout: 120_000 }, () => {
  let dir: string;
  const cli = (args: string[], cwd = dir, env: NodeJS.ProcessEnv = {}) => runCliInProcess(args, { cwd, env: { ...env } });

  beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'cms-robust-')); });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('init keeps the schema files already there, and refuses an empty folder name or a file', async () => {
    const mine = '{"slug":"products","name":"Mine","fields":[]}\n';
    mkdirSync(join(dir, 'site', 'schemas', 'collections'), { recursive: true });
    writeFileSync(join(dir, 'site', 'schemas', 'collections', 'products.json'), mine);
    const r = await cli(['init', 'site', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Kept your schemas/collections/products.json');
    expect(readFileSync(join(dir, 'site', 'schemas', 'collections', 'products.json'), 'utf8')).toBe(mine);
    // The other starter files came.
    expect(existsSync(join(dir, 'site', 'schemas', 'page-types', 'landing-page.json'))).toBe(true);

    const empty = await cli(['init', '', '--yes']);
    expect([empty.code, empty.stderr]).toEqual([2, 'USAGE: init needs a folder (leave it out for the current one)\n']);
    writeFileSync(join(dir, 'afile'), 'x');
    const file = await cli(['init', 'afile', '--yes']);
    expect([file.code, file.stderr]).toEqual([2, 'USAGE: afile is a file, not a folder\n']);
  });

  it('refuses empty --config and --project, and a --port or --host that is none, as usage errors', async () => {
    const site = join(dir, 'site');
    for (const [args, message] of [
      [['--config', '', 'pages', 'list'], '--config needs a value'],
      [['--project', '', 'pages', 'list'], '--project needs a value'],
    ] as const) {
      const r = await cli([...args], site);
      expect([r.code, r.stderr], args.join(' ')).toEqual([2, `USAGE: ${message}\n`]);
    }
    for (const args of [['serve', '--port', '99999'], ['serve', '--port', '-1'], ['dev', '--port', 'abc'], ['serve', '--host', '']]) {
      const r = await cli(args, site);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^USAGE: option '--(port|host) <(port|host)>' argument '.*' is invalid\. (Use a whole number from 0 to 65535|Give an address)/);
    }
  });

  it('export makes the folder of --out, and refuses a folder as --out', async () => {
    const site = join(dir, 'site');
    const out = join(dir, 'not', 'yet', 'there.cms.tar.gz');
    const r = await cli(['export', '--out', out], site);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(out).size).toBeGreaterThan(0);
    for (const args of [['export', '--out', dir], ['types', '--out', dir], ['openapi', '--out', dir]]) {
      const folder = await cli(args, site);
      expect([folder.code, folder.stderr], args[0]).toEqual([2, `USAGE: --out ${dir} is a folder; name a file\n`]);
    }
  });

  it('tells a data folder that is a file, and a database that cannot be reached, as CONFIG (exit 1), within seconds', async () => {
    const site = join(dir, 'site');
    const file = await cli(['pages', 'list'], site, { CMS_DATA_DIR: join(dir, 'afile') });
    expect([file.code, file.stderr]).toEqual([1, `CONFIG: ${join(dir, 'afile')} is in the way (a file where a folder should be) (EEXIST)\n`]);
    const started = Date.now();
    // An address that answers nothing: postgres.js alone would try to connect for ever.
    const silent = await cli(['pages', 'list'], site, { DATABASE_URL: 'postgres://postgres@10.255.255.1:5432/x' });
    expect(silent.code).toBe(1);
    expect(silent.stderr).toMatch(/^CONFIG: Cannot use the database DATABASE_URL names: /);
    expect(Date.now() - started).toBeLessThan(60_000);
    const json = await cli(['--json', 'pages', 'list'], site, { DATABASE_URL: 'postgres://postgres@nohost.invalid:1/x' });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'CONFIG', message: expect.stringMatching(/^Cannot use the database DATABASE_URL names: .*nohost\.invalid/) });
  });

  it('ends quietly, exit 0, when the reader of its output stops early (cms openapi | head)', async () => {
    const child = spawnCli(['openapi'], { cwd: dir, env: { DATABASE_URL: undefined, CMS_DATA_DIR: join(dir, 'openapi-data') } });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    // The document is far larger than a pipe holds: closing after the first bytes leaves it writing.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise((resolve, reject) => { child.on('close', resolve); child.on('error', reject); });
    expect([code, stderr]).toEqual([0, '']);
  });

  it('reads JSON files that start with a byte order mark', async () => {
    const site = join(dir, 'site');
    writeFileSync(join(site, 'fields.json'), '\ufeff{"headline":"Hi"}');
    const config = JSON.parse(readFileSync(join(site, 'cms.config.json'), 'utf8'));
    writeFileSync(join(site, 'cms.config.json'), `\ufeff${JSON.stringify(config)}`);
    const schemaFile = join(site, 'schemas', 'collections', 'products.json');
    writeFileSync(schemaFile, `\ufeff${readFileSync(schemaFile, 'utf8')}`);
    const push = await cli(['schema', 'push', '--yes'], site);
    expect(push.code, push.stderr).toBe(0);
    const r = await cli(['--json', 'pages', 'create', '--type', 'landing-page', '--name', 'B', '--slug', 'bom', '--fields', '@fields.json'], site);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().data.draftContent).toMatchObject({ headline: 'Hi' });
  });

  it('reads a JSON option from standard input with @- (the built CLI, stdin piped), once per command', async () => {
    const site = join(dir, 'site');
    const env = { DATABASE_URL: '' };
    const r = await runCli(['--json', 'pages', 'create', '--type', 'landing-page', '--name', 'Piped', '--slug', 'piped', '--fields', '@-'], { cwd: site, env, input: '\ufeff{"headline":"From stdin"}' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().data.draftContent).toMatchObject({ headline: 'From stdin' });
    const twice = await runCli(['pages', 'update', 'piped', '--fields', '@-', '--seo', '@-'], { cwd: site, env, input: '{"headline":"Again"}' });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('--seo: cannot read standard input: standard input was already read by another option');
    const notJson = await runCli(['pages', 'update', 'piped', '--fields', '@-'], { cwd: site, env, input: 'headline: yaml' });
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('--fields must be a JSON object (or @file.json, or @- for standard input)');
    const read = await runCli(['--json', 'pages', 'get', 'piped'], { cwd: site, env });
    expect(read.json().data.draftContent).toMatchObject({ headline: 'From stdin' });
  });
});
