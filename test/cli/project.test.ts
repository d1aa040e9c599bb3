import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { sql } from 'drizzle-orm';
import { createDb, type Db } from '../../src/db/client.js';
import { rowsOf } from '../../src/lib/rows.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';

/** Generous: each CLI run starts Node and opens the database, and CI machines may be busy. */
const cliTimeout = 180_000;

/** Settings a developer's shell may carry that would point the CLI elsewhere. */
const cleanEnv: NodeJS.ProcessEnv = { CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, CMS_PASSWORD: undefined, CMS_BASE_URL: undefined, PORT: undefined, HOST: undefined };

const templates = fileURLToPath(new URL('../../templates/schemas', import.meta.url));
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const withoutEditorHint = ({ $schema: _hint, ...rest }: Record<string, unknown>) => rest;

/**
 * The CLI as a user runs it: one project folder made by `cms init`, shared by the tests below,
 * which run in order. In the PostgreSQL run the folder works on a fresh database of its own.
 */
describe('cms in a project folder', { timeout: cliTimeout }, () => {
  let root: string;
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const cli = (args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> =>
    runCli(args, { cwd: options.cwd ?? dir, env: { ...cleanEnv, DATABASE_URL: database.url, ...options.env }, timeoutMs: cliTimeout });
  const schemaFile = (...parts: string[]) => join(dir, 'schemas', ...parts);

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cms-cli-'));
    dir = join(root, 'demo');
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('init writes the config, the starter schemas and the data folder', async () => {
    const r = await cli(['init', 'demo', '--yes'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('cms schema push');
    expect(readJson(join(dir, 'cms.config.json'))).toEqual({ project: 'default', dataDir: '.cms', schemasDir: 'schemas' });
    expect(existsSync(join(dir, '.cms', 'media'))).toBe(true);
    expect(existsSync(schemaFile('cms-schema.json'))).toBe(true);
    for (const kind of ['page-types', 'collections', 'components']) {
      const names = readdirSync(join(templates, kind)).sort();
      expect(readdirSync(schemaFile(kind)).sort()).toEqual(names);
      for (const name of names) expect(readJson(schemaFile(kind, name))).toEqual(readJson(join(templates, kind, name)));
    }
  });

  it('init refuses a folder that already has a config', async () => {
    const r = await cli(['init', 'demo', '--yes'], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/already has a cms\.config\.json/);
  });

  it('schema push applies the starter schemas, and a second push has nothing to do', async () => {
    const first = await cli(['schema', 'push']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('+ pageTypes/landing-page');
    expect(first.stdout).toContain('+ collections/products');
    const again = await cli(['schema', 'push', '--json']);
    expect(again.code, again.stderr).toBe(0);
    const plan = again.json().data;
    expect({ create: plan.create, update: plan.update, delete: plan.delete }).toEqual({ create: [], update: [], delete: [] });
    expect(plan.unchanged).toHaveLength(4);
  });

  it('schema list shows the types in the database', async () => {
    const r = await cli(['schema', 'list', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().data.map((t: { kind: string; slug: string }) => `${t.kind}/${t.slug}`).sort()).toEqual([
      'collections/products', 'components/call-to-action', 'components/quote', 'pageTypes/landing-page',
    ]);
  });

  it('empty lists say so in one line, with the command that makes the first one', async () => {
    const items = await cli(['items', 'list', '--collection', 'products']);
    expect(items.code, items.stderr).toBe(0);
    expect(items.stdout).toBe('No products items yet. Create one: cms items create --collection products --name "First item" --slug first-item\n');
    const pages = await cli(['pages', 'list', '--type', 'landing-page']);
    expect(pages.stdout).toBe('No landing-page pages yet. Create one: cms pages create --type landing-page --name Home --slug home\n');
    const keys = await cli(['keys', 'list']);
    expect(keys.stdout).toBe('No keys yet. Create one: cms keys create --type public\n');
    const json = await cli(['items', 'list', '--collection', 'products', '--json']);
    expect(json.json()).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } });
  });

  it('lists are tables with readable headers and local dates that fit the terminal; --json is untouched', async () => {
    const long = 'A product with a name far too long for a narrow terminal window';
    const made = await cli(['items', 'create', '--collection', 'products', '--name', long, '--slug', 'long-one', '--fields', '{"sku":"L-1"}']);
    expect(made.code, made.stderr).toBe(0);
    const r = await cli(['items', 'list', '--collection', 'products'], { env: { COLUMNS: '100' } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +SLUG +NAME +STATUS +VERSION +UPDATED$/);
    expect(lines[1]).toMatch(/^[0-9a-f-]{36} +long-one +A product with .*… +draft +1 +\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(lines[2]).toBe('page 1 of 1 (1 in all)');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    const pages = await cli(['pages', 'list', '--page', '3']);
    expect(pages.stdout).toMatch(/^No pages yet\./);

    const json = await cli(['items', 'list', '--collection', 'products', '--json'], { env: { COLUMNS: '80' } });
    const doc = json.json();
    expect(Object.keys(doc)).toEqual(['data', 'pagination']);
    expect(doc.data[0]).toMatchObject({ name: long, slug: 'long-one', updatedAt: expect.stringMatching(/Z$/) });
    const del = await cli(['items', 'delete', 'long-one', '--collection', 'products']);
    expect(del.code, del.stderr).toBe(0);
  });

  let secret: { id: string; key: string };

  it('keys create --json prints one JSON document with the whole key', async () => {
    const r = await cli(['keys', 'create', '--type', 'secret', '--permissions', 'content:write', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = r.json();
    expect(Object.keys(doc)).toEqual(['data']);
    expect(Object.keys(doc.data).sort()).toEqual(['createdAt', 'id', 'key', 'name', 'permissions', 'type']);
    expect(doc.data).toMatchObject({ type: 'secret', permissions: ['content:write'] });
    expect(doc.data.key).toMatch(/^svc_sk_[A-Za-z0-9_-]{20,}$/);
    expect(new Date(doc.data.createdAt).toISOString()).toBe(doc.data.createdAt);
    secret = doc.data;
  });

  it('keys list --json lists keys without the key itself', async () => {
    const r = await cli(['keys', 'list', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { data } = r.json();
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ id: secret.id, type: 'secret', permissions: ['content:write'], revokedAt: null });
    expect(data[0]).not.toHaveProperty('key');
    expect(JSON.stringify(data)).not.toContain(secret.key);
    expect(secret.key.startsWith(data[0].prefix)).toBe(true);
  });

  it('keys list prints a table with when each key was last used; the revoked column only with --all', async () => {
    const r = await cli(['keys', 'list']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +TYPE +NAME +PREFIX +PERMISSIONS +CREATED +LAST USED$/);
    // Never used yet; the day it was made. 100 columns (not a terminal) cut the name and prefix.
    expect(lines[1]).toMatch(new RegExp(`^${secret.id} +secret +.+ +\\d{4}-\\d{2}-\\d{2} +never$`));
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    const wide = await cli(['keys', 'list'], { env: { COLUMNS: '160' } });
    expect(wide.stdout.split('\n')[1]).toMatch(new RegExp(`^${secret.id} +secret +secret key +${secret.key.slice(0, 11)} +content:write +\\d{4}-\\d{2}-\\d{2} +never$`));
    const all = await cli(['keys', 'list', '--all']);
    expect(all.stdout.split('\n')[0]).toMatch(/ +LAST USED +REVOKED$/);
  });

  it('keys revoke takes the key out of the list; revoking it again fails with the code on stderr', async () => {
    const revoked = await cli(['keys', 'revoke', secret.id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(secret.id);

    const active = await cli(['keys', 'list', '--json']);
    expect(active.json().data).toEqual([]);

    const again = await cli(['keys', 'revoke', secret.id]);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/^NOT_FOUND: .*not found/m);
  });

  it('an operation error with --json is one JSON document on stdout', async () => {
    const r = await cli(['keys', 'create', '--type', 'public', '--permissions', 'content:write', '--json']);
    expect(r.code).toBe(1);
    const doc = r.json();
    expect(Object.keys(doc)).toEqual(['error']);
    expect(doc.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('secret') });
    expect(r.stderr).toMatch(/^VALIDATION_FAILED: /m);
  });

  it('users create takes the password from a flag or from CMS_PASSWORD, and users list shows both', async () => {
    const owner = await cli(['users', 'create', '--email', 'a@b.test', '--password', 'correct horse battery', '--role', 'owner', '--json']);
    expect(owner.code, owner.stderr).toBe(0);
    expect(owner.json().data).toMatchObject({ id: expect.any(String), email: 'a@b.test', role: 'owner' });
    expect(owner.stdout).not.toContain('correct horse battery');
    expect(owner.stdout).not.toMatch(/password/i);

    const editor = await cli(['users', 'create', '--email', 'E@D.test', '--role', 'editor', '--json'], { env: { CMS_PASSWORD: 'from the environment' } });
    expect(editor.code, editor.stderr).toBe(0);
    expect(editor.json().data).toMatchObject({ email: 'e@d.test', role: 'editor' });

    const list = await cli(['users', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.json().data.map((u: { email: string; role: string }) => [u.email, u.role])).toEqual([['a@b.test', 'owner'], ['e@d.test', 'editor']]);
  });

  it('users create without any password is a usage error', async () => {
    const r = await cli(['users', 'create', '--email', 'x@y.test', '--role', 'viewer']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('CMS_PASSWORD');
  });

  it('schema diff shows what push would change, without changing it', async () => {
    const file = schemaFile('collections', 'products.json');
    const products = readJson(file) as { fields: unknown[] };
    products.fields.push({ name: 'weight', label: 'Weight', type: 'number' });
    writeFileSync(file, JSON.stringify(products, null, 2));

    const diff = await cli(['schema', 'diff']);
    const pushed = await cli(['schema', 'push', '--json']);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout.trim().split('\n')).toEqual(['~ collections/products', '    + field weight', '1 change to apply; 3 unchanged.']);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.json().data.update).toEqual([{
      kind: 'collections', slug: 'products', changes: ['+ field weight'], fields: { added: ['weight'], changed: [], removed: [] },
    }]);
  });

  it('schema pull writes the database schemas back as files', async () => {
    const before = Object.fromEntries(['page-types/landing-page.json', 'collections/products.json', 'components/quote.json']
      .map((f) => [f, withoutEditorHint(readJson(schemaFile(f)))]));
    rmSync(join(dir, 'schemas'), { recursive: true });

    const r = await cli(['schema', 'pull']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(join('schemas', 'page-types', 'landing-page.json'));
    for (const [f, def] of Object.entries(before)) expect(withoutEditorHint(readJson(schemaFile(f)))).toEqual(def);
    // Written in the order people write them in, not the database's.
    expect(Object.keys(readJson(schemaFile('collections', 'products.json')))).toEqual(['$schema', 'slug', 'name', 'fields']);
    expect(Object.keys((readJson(schemaFile('collections', 'products.json')).fields as object[])[0]!)).toEqual(['name', 'label', 'type', 'required', 'options']);
    expect(existsSync(schemaFile('cms-schema.json'))).toBe(true);

    const diff = await cli(['schema', 'diff']);
    expect(diff.stdout).toContain('Schema is up to date.');

    // A file of a type the database does not have (renamed or deleted elsewhere) is listed, and
    // removed with --prune, so the next push does not create that type again.
    const stale = schemaFile('collections', 'old-brands.json');
    writeFileSync(stale, JSON.stringify({ slug: 'old-brands', name: 'Old brands', fields: [] }));
    const listed = await cli(['schema', 'pull', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json().data.stale).toEqual([join('schemas', 'collections', 'old-brands.json')]);
    expect(existsSync(stale)).toBe(true);
    const told = await cli(['schema', 'pull']);
    expect(told.stdout).toContain('1 file(s) name types the database does not have');
    const pruned = await cli(['schema', 'pull', '--prune', '--json']);
    expect(pruned.json().data.removed).toEqual([join('schemas', 'collections', 'old-brands.json')]);
    expect(existsSync(stale)).toBe(false);
    expect((await cli(['schema', 'diff'])).stdout).toContain('Schema is up to date.');
  });

  it('schema add writes the file and applies the type', async () => {
    const r = await cli(['schema', 'add', 'page-type', 'x', '--field', 'title:text:required', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().data).toMatchObject({ kind: 'pageTypes', slug: 'x', file: join('schemas', 'page-types', 'x.json') });
    expect(withoutEditorHint(readJson(schemaFile('page-types', 'x.json')))).toEqual({
      slug: 'x', name: 'X', fields: [{ name: 'title', label: 'Title', type: 'text', required: true }],
    });
    const y = await cli(['schema', 'add', 'collection', 'y', '--field', 'label:text']);
    expect(y.code, y.stderr).toBe(0);
    expect(existsSync(schemaFile('collections', 'y.json'))).toBe(true);

    const list = await cli(['schema', 'list', '--json']);
    expect(list.json().data).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'pageTypes', slug: 'x', fields: 1, entries: 0 }),
      expect.objectContaining({ kind: 'collections', slug: 'y', fields: 1, entries: 0 }),
    ]));
  });

  it('schema add takes a select without choices (any text), as name:select or name:select:required', async () => {
    const r = await cli(['schema', 'add', 'collection', 'crew', '--field', 'name:text', '--field', 'role:select', '--field', 'level:select:required']);
    expect(r.code, r.stderr).toBe(0);
    expect(readJson(schemaFile('collections', 'crew.json')).fields).toEqual([
      { name: 'name', label: 'Name', type: 'text' },
      { name: 'role', label: 'Role', type: 'select' },
      { name: 'level', label: 'Level', type: 'select', required: true },
    ]);
    const item = await cli(['items', 'create', '--collection', 'crew', '--name', 'Bo', '--slug', 'bo', '--fields', '{"role":"any words at all"}', '--json']);
    expect(item.code, item.stderr).toBe(0);
    expect(item.json().data.draftContent.role).toBe('any words at all');
    // Gone again (file and type), so the folder is as the later tests expect it.
    rmSync(schemaFile('collections', 'crew.json'));
    const push = await cli(['schema', 'push', '--force']);
    expect(push.code, push.stderr).toBe(0);
    const list = await cli(['schema', 'list', '--json']);
    expect(list.json().data.map((t: { slug: string }) => t.slug)).not.toContain('crew');
  });

  it('schema add refuses a bad field spec as a usage error', async () => {
    const r = await cli(['schema', 'add', 'page-type', 'z', '--field', 'title:text:optional']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('title:text:optional');
  });

  it('push deletes a type without content whose file is gone', async () => {
    rmSync(schemaFile('collections', 'y.json'));
    const r = await cli(['schema', 'push']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('- collections/y');
  });

  it('push refuses to delete a type that has content unless --force', async () => {
    const page = await cli(['pages', 'create', '--type', 'x', '--name', 'Home', '--slug', 'home', '--fields', '{"title":"Hello"}']);
    expect(page.code, page.stderr).toBe(0);
    rmSync(schemaFile('page-types', 'x.json'));

    const refused = await cli(['schema', 'push']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^HAS_REFERENCES: .*pageTypes\/x \(1 entries\).*--force/m);
    const still = await cli(['schema', 'list', '--json']);
    expect(still.json().data).toEqual(expect.arrayContaining([expect.objectContaining({ slug: 'x', entries: 1 })]));

    const forced = await cli(['schema', 'push', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('- pageTypes/x (1 entries)');
  });

  it('push of invalid files exits 1 and names every problem with its file and JSON path, applying nothing', async () => {
    // A second config on the same data, reading another schemas folder (and so also --config).
    writeFileSync(join(dir, 'bad.config.json'), JSON.stringify({ dataDir: '.cms', schemasDir: 'bad-schemas' }));
    const bad = (...parts: string[]) => join(dir, 'bad-schemas', ...parts);
    mkdirSync(bad('page-types'), { recursive: true });
    mkdirSync(bad('components'), { recursive: true });
    writeFileSync(bad('page-types', 'article.json'), JSON.stringify({
      slug: 'article', name: 'Article', fields: [
        { name: 'bad-name', label: 'Bad', type: 'text' },
        { name: 'author', label: 'Author', type: 'reference', options: { referenceType: 'user', collectionType: 'products' } },
        { name: 'role', label: 'Role', type: 'select', options: { choices: [] } },
      ],
    }));
    writeFileSync(bad('page-types', 'faq.json'), JSON.stringify({
      slug: 'faq', name: 'FAQ', fields: [
        { name: 'groups', label: 'Groups', type: 'repeater', options: { fields: [
          { name: 'question', label: 'Question', type: 'text' },
          { name: 'answers', label: 'Answers', type: 'repeater', options: { fields: [{ name: 'text', label: 'Text', type: 'text' }] } },
        ] } },
      ],
    }));
    writeFileSync(bad('components', 'card.json'), JSON.stringify({
      slug: 'card', name: 'Card', fields: [{ name: 'inner', label: 'Inner', type: 'nestedComponent', options: {} }],
    }));
    writeFileSync(bad('components', 'fine.json'), JSON.stringify({ slug: 'fine', name: 'Fine', fields: [{ name: 'a', label: 'A', type: 'text' }] }));
    // A file that is not JSON is reported with the other files' problems, not instead of them.
    writeFileSync(bad('components', 'broken.json'), '[');
    // A file not named after its slug: `schema pull` would write a second one beside it.
    writeFileSync(bad('components', 'other.json'), JSON.stringify({ slug: 'misnamed', name: 'Misnamed', fields: [] }));

    const r = await cli(['schema', 'push', '--config', 'bad.config.json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    const problem = (file: string, path: string, says: RegExp) =>
      expect(lines.some((l) => l.includes(join('bad-schemas', ...file.split('/'))) && l.includes(`${path}:`) && says.test(l)), `${file} ${path} in:\n${r.stderr}`).toBe(true);
    problem('page-types/article.json', 'fields[0].name', /\^\[a-zA-Z\]/);
    problem('page-types/article.json', 'fields[1].options.collectionType', /user/);
    problem('page-types/faq.json', 'fields[0].options.fields[1].type', /repeater/);
    problem('components/card.json', 'fields[0].options.componentSlug', /required/);
    problem('page-types/article.json', 'fields[2].options.choices', /must not be empty/);
    problem('components/broken.json', '(file)', /not valid JSON/);
    problem('components/other.json', 'slug', /"misnamed" is not the file's name: .*rename the file to misnamed\.json/);
    expect(r.stderr).toMatch(/^VALIDATION_FAILED: The schema has 7 problems:$/m);

    const list = await cli(['schema', 'list', '--json', '--config', 'bad.config.json']);
    expect(list.json().data.map((t: { slug: string }) => t.slug).sort()).toEqual(['call-to-action', 'landing-page', 'products', 'quote']);
  });

  it('schema add takes the choices of a select, as values or value=Label pairs, and :required after them', async () => {
    const r = await cli(['schema', 'add', 'collection', 'team', '--field', 'name:text:required',
      '--field', 'role:select:cto=Chief Technology Officer,cfo:required', '--field', 'level:select:junior,senior', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(withoutEditorHint(readJson(schemaFile('collections', 'team.json')))).toEqual({
      slug: 'team', name: 'Team', fields: [
        { name: 'name', label: 'Name', type: 'text', required: true },
        { name: 'role', label: 'Role', type: 'select', required: true, options: { choices: [{ value: 'cto', label: 'Chief Technology Officer' }, { value: 'cfo', label: 'cfo' }] } },
        { name: 'level', label: 'Level', type: 'select', options: { choices: [{ value: 'junior', label: 'junior' }, { value: 'senior', label: 'senior' }] } },
      ],
    });
    const bad = await cli(['items', 'create', '--collection', 'team', '--name', 'Ann', '--slug', 'ann', '--fields', '{"name":"Ann","role":"ceo"}']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^VALIDATION_FAILED: /);
    const good = await cli(['items', 'create', '--collection', 'team', '--name', 'Ann', '--slug', 'ann', '--fields', '{"name":"Ann","role":"cto"}']);
    expect(good.code, good.stderr).toBe(0);
  });

  it('finds cms.config.json by walking up from a subfolder', async () => {
    const sub = join(dir, 'content', 'deep');
    mkdirSync(sub, { recursive: true });
    const r = await cli(['users', 'list', '--json'], { cwd: sub });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().data.map((u: { email: string }) => u.email)).toEqual(['a@b.test', 'e@d.test']);
  });

  it('projects create makes a project once: a taken slug is SLUG_EXISTS, exit 1', async () => {
    const made = await cli(['projects', 'create', 'second', '--json']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.json().data).toMatchObject({ slug: 'second', name: 'second' });
    const again = await cli(['projects', 'create', 'second']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^SLUG_EXISTS: Project second already exists/);
    const list = await cli(['projects', 'list', '--json']);
    expect(list.json().data.map((p: { slug: string }) => p.slug).sort()).toEqual(['default', 'second']);
  });

  it('--fields with a __proto__ member or a lone surrogate is refused at its path, writing nothing', async () => {
    const r = await cli(['items', 'create', '--collection', 'team', '--name', 'Eve', '--slug', 'eve', '--json', '--fields', '{"name":"Eve \\ud800","__proto__":{"role":"x"}}']);
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({ code: 'VALIDATION_FAILED', details: [
      { path: 'fields.name', message: expect.stringMatching(/lone surrogate/) },
      { path: 'fields.__proto__', message: 'is not an allowed member name' },
    ] });
    const list = await cli(['items', 'list', '--collection', 'team', '--json']);
    expect(list.json().data.map((i: { slug: string }) => i.slug)).not.toContain('eve');
  });

  it('db status says which database the environment chose (PostgreSQL when DATABASE_URL is a postgres:// URL)', async () => {
    const r = await cli(['db', 'status', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const status = r.json().data;
    expect(status).toMatchObject({ driver: testDriver, project: 'default', pending: 0, via: 'local' });
    if (testDriver === 'postgres') {
      expect(status.server).toMatch(/PostgreSQL/);
      expect(status.database).toContain(new URL(database.url!).pathname);
    } else {
      expect(status.database).toBe(`${join(dir, '.cms')}/db (PGlite)`);
    }
  });

  it('db status shows a pending migration as pending, and applies nothing', async () => {
    // The last migration taken off the record, as on a database a newer release will upgrade.
    const open = () => createDb(database.url ? { databaseUrl: database.url } : { dataDir: join(dir, '.cms', 'db') });
    const take = async (run: (db: Db) => Promise<unknown>) => {
      const handle = await open();
      try { return await run(handle.db); } finally { await handle.close(); }
    };
    const [last] = rowsOf<{ id: number; hash: string; created_at: string }>(await take((db) =>
      db.execute(sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations) returning id, hash, created_at`)));
    expect(last).toBeDefined();
    try {
      const r = await cli(['db', 'status', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const status = r.json().data;
      expect(status.pending).toBe(1);
      expect(status.migrations.at(-1).applied).toBe(false);
      expect(status.migrations.filter((m: { applied: boolean }) => m.applied)).toHaveLength(status.migrations.length - 1);
      const text = await cli(['db', 'status']);
      expect(text.stdout).toContain(`${status.migrations.length - 1} applied, 1 pending`);
      // Still pending: the status read applied nothing.
      const [row] = rowsOf<{ n: number }>(await take((db) => db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)));
      expect(row?.n).toBe(status.migrations.length - 1);
    } finally {
      await take((db) => db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${last!.id}, ${last!.hash}, ${last!.created_at})`));
    }
    expect((await cli(['db', 'status', '--json'])).json().data.pending).toBe(0);
  });
});
