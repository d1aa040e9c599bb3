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
    expect(r.stdout).toBe(`${pkg.version}\n`);
    // `-v` alone is answered the same way; with --json the version is one JSON document.
    const again = await cli(['-v']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`${pkg.version}\n`);
    for (const args of [['--json', '--version'], ['-v', '--json']]) {
      const json = await cli(args);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual({ data: { version: pkg.version } });
    }
  });

  it('--help lists the commands and exits 0', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const noun of ['init', 'serve', 'schema', 'keys', 'users', 'db']) expect(r.stdout).toMatch(new RegExp(`^\\s+${noun}\\b`, 'm'));
    expect(r.stdout).toContain('--json');
  });

  it('an unknown command exits 2 and says so on stderr, on a USAGE: line', async () => {
    const r = await cli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^USAGE: unknown command 'frobnicate'/);
    expect(r.stdout).toBe('');
  });

  it('an unknown flag exits 2', async () => {
    const r = await cli(['keys', 'list', '--colour']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--colour'");
  });

  it('an unknown command or flag beside --help or --version still exits 2; known ones still get their help', async () => {
    for (const args of [['frobnicate', '--help'], ['frobnicate', '--version'], ['keys', 'list', '--colour', '--help'], ['keys', 'revoke', 'abc', '--colour', '-h'], ['keys', 'frobnicate', '--help']]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^USAGE: unknown (command 'frobnicate'|option '--colour')$/m);
      expect(r.stdout).toBe('');
    }
    const json = await cli(['keys', 'list', '--colour', '--help', '--json']);
    expect(json.code).toBe(2);
    expect(json.json()).toEqual({ error: { code: 'USAGE', message: "unknown option '--colour'" } });
    for (const args of [['keys', 'list', '--help'], ['items', 'list', '--collection', 'products', '--filter', 'name=a', 'slug=b', '--help'], ['keys', 'create', '--type', 'public', '--help'], ['help', 'keys']]) {
      const r = await cli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/^Usage: cms /m);
    }
  });

  it('a usage error with --json is also one JSON document on stdout', async () => {
    const r = await cli(['keys', 'create', '--json']);
    expect(r.code).toBe(2);
    expect(r.json()).toEqual({ error: { code: 'USAGE', message: expect.stringContaining('--type') } });
  });

  it.each([
    [['pages', 'create', '--type', 'landing-page', '--name', 'Home', '--slug', 'home', '--status', 'live'], "'--status <status>' argument 'live' is invalid. Allowed choices are draft, published."],
    [['items', 'create', '--collection', 'products', '--name', 'A', '--slug', 'a', '--status', 'live'], 'Allowed choices are draft, published.'],
    [['blog', 'posts', 'list', '--status', 'live'], 'Allowed choices are draft, published.'],
    [['keys', 'create', '--type', 'admin'], "'--type <type>' argument 'admin' is invalid. Allowed choices are public, secret, preview."],
    [['keys', 'create', '--type', 'secret', '--permissions', 'content:write,content:read'], '"content:read" is not allowed; use content:write, media:write or ai:use, comma-separated.'],
    [['users', 'create', '--email', 'a@b.test', '--role', 'boss'], "'--role <role>' argument 'boss' is invalid. Allowed choices are viewer, editor, developer, admin, owner."],
    [['users', 'set-role', '00000000-0000-4000-8000-000000000000', '--role', 'boss'], 'Allowed choices are viewer, editor, developer, admin, owner.'],
    [['pages', 'resolve-conflict', 'home', '--base-version', '1', '--strategy', 'both'], 'Allowed choices are mine, theirs, merge.'],
    [['webhooks', 'create', '--url', 'http://127.0.0.1:9/', '--events', 'page.publish'], '"page.publish" is not allowed; use page.created,'],
    [['webhooks', 'deliveries', 'x', '--status', 'done'], 'Allowed choices are pending, success, failed, exhausted.'],
    [['migrate', 'run', '--from', 'contentful', '--api-key', 'k'], 'Allowed choices are buttercms.'],
    [['migrate', 'run', '--from', 'buttercms', '--mode', 'dry-run', '--api-key', 'k'], 'Allowed choices are dry_run, schema_only, full, incremental.'],
    [['migrate', 'logs', 'x', '--level', 'debug'], '"debug" is not allowed; use error, warning or info, comma-separated.'],
    [['pages', 'list', '--limit', 'ten'], "'--limit <n>' argument 'ten' is invalid. Use a whole number, 1 or more."],
    [['items', 'update', 'a', '--collection', 'products', '--version', 'latest'], 'Use a whole number, 1 or more.'],
  ])('a wrong option value is a usage error naming the allowed values: cms %s', async (args, says) => {
    const r = await cli(args);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^USAGE: option '--[a-z-]+ <\w+>' argument '[^']+' is invalid\. /);
    expect(r.stderr).toContain(says);
    expect(r.stderr).not.toMatch(/VALIDATION_FAILED|Invalid option|expected one of/);
    expect(r.stdout).toBe('');
  });

  it('a wrong option value with --json is one USAGE document listing the allowed values', async () => {
    const r = await cli(['keys', 'create', '--type', 'admin', '--json']);
    expect(r.code).toBe(2);
    expect(r.json().error).toEqual({ code: 'USAGE', message: expect.stringContaining('Allowed choices are public, secret, preview.') });
  });

  it('schema add with an unknown kind names the kinds there are', async () => {
    const r = await cli(['schema', 'add', 'widget', 'w1', '--field', 'title:text']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('USAGE: "widget" is not a kind of type: use page-type, collection or component, as in cms schema add collection team --field name:text');
  });

  it('schema add with a select choice without a value, or given twice, says so', async () => {
    const r = await cli(['schema', 'add', 'collection', 'team', '--field', 'role:select:=CTO']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^USAGE: Field "role:select:=CTO": the choice "=CTO" needs a value/m);
    const twice = await cli(['schema', 'add', 'collection', 'team', '--field', 'role:select:cto,cto:required']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('the choice "cto" is given twice');
  });

  it('schema add with an unknown field type lists the types', async () => {
    const r = await cli(['schema', 'add', 'collection', 'team', '--field', 'bio:richtext']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^USAGE: Field "bio:richtext": "richtext" is not a field type; use text, textarea, .* or repeater$/m);
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
