import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, runCli, type CliResult } from '../helpers/cli.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';

/** Generous: each CLI run starts Node and opens the database, and CI machines may be busy. */
const cliTimeout = 180_000;
const cleanEnv: NodeJS.ProcessEnv = { CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, CMS_PASSWORD: undefined, CMS_BASE_URL: undefined, PORT: undefined, HOST: undefined };

const plain = (s: string) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * `cms schema push` showing its plan and asking before destructive changes (issue 18): the built CLI
 * as a child process, on a terminal made by util-linux `script` (a real pseudo-terminal: stdin and
 * stdout are TTYs) and without one. The tests run in order on one project.
 */
describe(`cms schema push: the plan, and a question on a terminal (${testDriver})`, { timeout: cliTimeout }, () => {
  let root: string;
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const env = (): NodeJS.ProcessEnv => ({ ...cleanEnv, DATABASE_URL: database.url });
  const cli = (args: string[], cwd?: string): Promise<CliResult> => runCli(args, { cwd: cwd ?? dir, env: env(), timeoutMs: cliTimeout });
  const productsFile = () => join(dir, 'schemas', 'collections', 'products.json');
  const editProducts = (edit: (fields: Array<Record<string, unknown>>) => Array<Record<string, unknown>>) => {
    const def = JSON.parse(readFileSync(productsFile(), 'utf8'));
    def.fields = edit(def.fields);
    writeFileSync(productsFile(), JSON.stringify(def, null, 2));
  };

  /** Runs `cms ...args` on a pseudo-terminal; `answer` is typed once the question shows. */
  const onTerminal = (args: string[], answer?: string): Promise<{ code: number | null; output: string; asked: boolean }> => new Promise((resolve, reject) => {
    const command = `stty cols 160 rows 50; exec ${[process.execPath, binPath, ...args].map(quote).join(' ')}`;
    const childEnv: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm' };
    for (const [k, v] of Object.entries(env())) { if (v === undefined) delete childEnv[k]; else childEnv[k] = v; }
    delete childEnv.CI;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: dir, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let asked = false;
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`cms ${args.join(' ')} on a terminal timed out\n${plain(output)}`)); }, cliTimeout);
    const seen = (d: Buffer) => {
      output += d.toString();
      if (!asked && plain(output).includes('Apply? (y/N)')) {
        asked = true;
        if (answer !== undefined) child.stdin.write(`${answer}\r`);
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('error', reject);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, output: plain(output), asked }); });
  });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cms-push-plan-'));
    dir = join(root, 'site');
    database = await createTestDatabase();
    const init = await cli(['init', 'site', '--yes'], root);
    expect(init.code, init.stderr).toBe(0);
    const push = await cli(['schema', 'push']);
    expect(push.code, push.stderr).toBe(0);
    for (const [slug, fields] of [['a', { sku: 'A1', price: 3, description: '<p>A</p>' }], ['b', { sku: 'B1' }]] as const) {
      const r = await cli(['items', 'create', '--collection', 'products', '--name', slug, '--slug', slug, '--fields', JSON.stringify(fields)]);
      expect(r.code, r.stderr).toBe(0);
    }
    // Removes price (one entry holds a value), changes sku's type (two do), adds weight.
    editProducts((fields) => [
      ...fields.filter((f) => f.name !== 'price').map((f) => (f.name === 'sku' ? { ...f, type: 'textarea', options: {} } : f)),
      { name: 'weight', label: 'Weight', type: 'number' },
    ]);
  });
  afterAll(async () => {
    await database?.drop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('schema diff shows the plan field by field, with the entries each removal touches; --json carries the counts', async () => {
    const text = await cli(['schema', 'diff']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe([
      '~ collections/products',
      '    + field weight',
      '    ~ field sku: options, type: text → textarea (2 entries hold a value)',
      '    - field price (1 entry loses its value)',
      '1 change to apply; 3 unchanged.',
      '',
    ].join('\n'));
    const json = await cli(['schema', 'diff', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const plan = json.json().data;
    expect(plan.destructive).toBe(true);
    expect(plan.create).toEqual([]);
    expect(plan.delete).toEqual([]);
    expect(plan.update).toEqual([{
      kind: 'collections', slug: 'products', changes: ['~ field sku', '+ field weight', '- field price'],
      fields: {
        added: ['weight'],
        changed: [{ field: 'sku', changes: ['options', 'type: text → textarea'], entriesWithValues: 2 }],
        removed: [{ field: 'price', entriesWithValues: 1 }],
      },
    }]);
  });

  it('on a terminal, push shows the plan and asks; "n" changes nothing and exits 1', async () => {
    const r = await onTerminal(['schema', 'push'], 'n');
    expect(r.asked, r.output).toBe(true);
    expect(r.code, r.output).toBe(1);
    expect(r.output).toContain('- field price (1 entry loses its value)');
    expect(r.output.indexOf('- field price')).toBeLessThan(r.output.indexOf('Apply? (y/N)'));
    expect(r.output).toContain('Nothing was changed.');
    const diff = await cli(['schema', 'diff', '--json']);
    expect(diff.json().data.update[0].fields.removed).toEqual([{ field: 'price', entriesWithValues: 1 }]);
  });

  it('on a terminal, "y" applies the plan', async () => {
    const r = await onTerminal(['schema', 'push'], 'y');
    expect(r.asked, r.output).toBe(true);
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain('1 change applied; 3 unchanged.');
    const diff = await cli(['schema', 'diff']);
    expect(diff.stdout).toBe('Schema is up to date.\n');
  });

  it('without a terminal, push applies a destructive plan without asking, as before', async () => {
    editProducts((fields) => fields.filter((f) => f.name !== 'description'));
    const r = await cli(['schema', 'push']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(['~ collections/products', '    - field description (1 entry loses its value)', '1 change applied; 3 unchanged.', ''].join('\n'));
    expect(r.stderr).not.toContain('Apply?');
  });

  it('on a terminal, --json and --yes never ask; removing a type with content still needs --force', async () => {
    editProducts((fields) => fields.filter((f) => f.name !== 'weight'));
    const json = await onTerminal(['schema', 'push', '--json']);
    expect(json.asked, json.output).toBe(false);
    expect(json.code, json.output).toBe(0);
    expect(JSON.parse(json.output).data.update[0].fields.removed).toEqual([{ field: 'weight', entriesWithValues: 0 }]);

    const notesFile = join(dir, 'schemas', 'collections', 'notes.json');
    writeFileSync(notesFile, JSON.stringify({ slug: 'notes', name: 'Notes', fields: [{ name: 'text', label: 'Text', type: 'text' }] }));
    expect((await cli(['schema', 'push'])).code).toBe(0);
    for (const slug of ['one', 'two']) {
      const r = await cli(['items', 'create', '--collection', 'notes', '--name', slug, '--slug', slug]);
      expect(r.code, r.stderr).toBe(0);
    }
    rmSync(notesFile);
    const diff = await cli(['schema', 'diff']);
    expect(diff.stdout, diff.stderr).toBe('- collections/notes (2 entries)\n1 change to apply; 4 unchanged.\n');
    const blocked = await onTerminal(['schema', 'push', '--yes']);
    expect(blocked.asked).toBe(false);
    expect(blocked.code).toBe(1);
    expect(blocked.output).toContain('HAS_REFERENCES');
    const forced = await onTerminal(['schema', 'push', '--yes', '--force']);
    expect(forced.asked, forced.output).toBe(false);
    expect(forced.code, forced.output).toBe(0);
    expect(forced.output).toContain('- collections/notes (2 entries)');
    expect((await cli(['schema', 'diff'])).stdout).toBe('Schema is up to date.\n');
  });
});
