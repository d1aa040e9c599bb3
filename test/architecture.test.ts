import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { operations } from '../src/core/registry.js';

/** The rules of docs/architecture.md, read from the import lines and the syntax of src/. */

const root = fileURLToPath(new URL('..', import.meta.url));

/** Allowed exceptions, each one on purpose. */
const allowed = {
  /** `cms serve` starts the HTTP server, and `cms openapi` describes its route table: the only places where one door reaches into the other. */
  doorCrossings: [['src/cli/server-process.ts', 'src/http/node-server.ts'], ['src/cli/dev-process.ts', 'src/http/node-server.ts'], ['src/cli/commands/openapi.ts', 'src/http/openapi.ts'], ['src/cli/commands/openapi.ts', 'src/http/app.ts']],
  /** The doors may ask which driver a URL selects, and use the Db types; nothing else of src/db. */
  dbValues: { 'src/db/client.ts': ['isPostgresUrl'] } as Record<string, string[]>,
};

const doorLibraries = ['h3', 'commander', '@clack/prompts', 'ora', 'listhen', 'undici'];
/** Query builders and drivers: the doors reach data only through operations. */
const databaseLibraries = ['drizzle-orm', '@electric-sql/pglite', 'postgres', 'pg'];

interface ImportRef {
  specifier: string;
  /** Repository-relative path of a relative import, with its .ts extension. */
  target: string | null;
  typeOnly: boolean;
  /** Imported binding names (types marked `type X`); null for namespace, default or side-effect imports. */
  names: string[] | null;
  dynamic: boolean;
}

/** Drops comments, keeping strings (a `'/**'` route pattern is not a comment) and line breaks. */
function stripComments(source: string): string {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (quote) {
      out += c;
      if (c === '\\') out += source[++i] ?? '';
      else if (c === quote) quote = null;
    } else if (c === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const skipped = source.slice(i, end < 0 ? source.length : end + 2);
      out += skipped.replace(/[^\n]/g, '');
      i += skipped.length - 1;
    } else if (c === '/' && /(^|[(,=:[!&|?{};]|return)\s*$/.test(out.slice(-12))) {
      // A regular expression literal: copied as is, so its quotes open no string.
      let inClass = false;
      let j = i + 1;
      for (; j < source.length && source[j] !== '\n'; j++) {
        const d = source[j];
        if (d === '\\') j++;
        else if (d === '[') inClass = true;
        else if (d === ']') inClass = false;
        else if (d === '/' && !inClass) break;
      }
      out += source.slice(i, j + 1);
      i = j;
    } else {
      if (c === "'" || c === '"' || c === '`') quote = c;
      out += c;
    }
  }
  return out;
}

function namesOf(clause: string): string[] | null {
  const m = /^\{([\s\S]*)\}$/.exec(clause.trim());
  if (!m) return null;
  return m[1]!.split(',').map((s) => s.trim()).filter(Boolean).map((s) => s.replace(/\s+as\s+\w+$/, '').replace(/\s*:\s*\w+$/, ''));
}

/** Every import of a module: static, re-exports, side-effect and dynamic `import('…')`. */
function readImports(source: string, file: string): ImportRef[] {
  const text = stripComments(source);
  const out: ImportRef[] = [];
  const resolveTarget = (specifier: string) =>
    specifier.startsWith('.') ? relative(root, resolve(dirname(join(root, file)), specifier)).split(sep).join('/').replace(/\.js$/, '.ts') : null;
  for (const m of text.matchAll(/^[ \t]*(?:import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*['"]([^'"]+)['"]/gm)) {
    const names = namesOf(m[2]!);
    const typeOnly = !!m[1] || (names !== null && names.length > 0 && names.every((n) => n.startsWith('type ')));
    out.push({ specifier: m[3]!, target: resolveTarget(m[3]!), typeOnly, names, dynamic: false });
  }
  for (const m of text.matchAll(/^[ \t]*import\s*['"]([^'"]+)['"]/gm)) {
    out.push({ specifier: m[1]!, target: resolveTarget(m[1]!), typeOnly: false, names: null, dynamic: false });
  }
  for (const m of text.matchAll(/(?:\{([^{}]*)\}\s*=\s*await\s+)?import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    out.push({ specifier: m[2]!, target: resolveTarget(m[2]!), typeOnly: false, names: m[1] === undefined ? null : namesOf(`{${m[1]}}`), dynamic: true });
  }
  return out;
}

/** The line numbers that use `process.` outside comments. */
function usesProcess(source: string): number[] {
  return stripComments(source).split('\n').flatMap((line, n) => (/(^|[^\w.$])process\./.test(line) ? [n + 1] : []));
}

/** The admin web app: browser code built by Vite (its own tsconfig), outside the server's layers. */
const browserApp = 'src/admin';

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (path === browserApp) return [];
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

const files = sourceFiles('src').map((file) => {
  const source = readFileSync(join(root, file), 'utf8');
  return { file, source, imports: readImports(source, file) };
});
const under = (folder: string) => files.filter((f) => f.file.startsWith(`${folder}/`));
const isModule = (specifier: string, names: string[]) => names.some((n) => specifier === n || specifier.startsWith(`${n}/`));

describe('the import reader', () => {
  it('reads static, type-only, re-exported, side-effect and dynamic imports', () => {
    const source = [
      "import { a, type B } from './x.js';",
      "import type { C } from '../y.js';",
      'import {',
      '  d,',
      '  e as f,',
      "} from 'h3';",
      "export { g } from './z.js';",
      "import 'node:process';",
      '// import { hidden } from "commander";',
      "const { isPostgresUrl } = await import('../db/client.js');",
      "const mod = await import('listhen');",
      "const quoted = /^['\"]/.test(x); app.all('/**', () => process.exitCode);",
      "const later = await import('./after-a-regex.js');",
    ].join('\n');
    expect(readImports(source, 'src/cli/file.ts')).toEqual([
      { specifier: './x.js', target: 'src/cli/x.ts', typeOnly: false, names: ['a', 'type B'], dynamic: false },
      { specifier: '../y.js', target: 'src/y.ts', typeOnly: true, names: ['C'], dynamic: false },
      { specifier: 'h3', target: null, typeOnly: false, names: ['d', 'e'], dynamic: false },
      { specifier: './z.js', target: 'src/cli/z.ts', typeOnly: false, names: ['g'], dynamic: false },
      { specifier: 'node:process', target: null, typeOnly: false, names: null, dynamic: false },
      { specifier: '../db/client.js', target: 'src/db/client.ts', typeOnly: false, names: ['isPostgresUrl'], dynamic: true },
      { specifier: 'listhen', target: null, typeOnly: false, names: null, dynamic: true },
      { specifier: './after-a-regex.js', target: 'src/cli/after-a-regex.ts', typeOnly: false, names: null, dynamic: true },
    ]);
    expect(usesProcess("x = /'/; // process.env\n/* process.exit() */ y = '/**'; process.exitCode = 1;")).toEqual([2]);
  });

  it('finds the source tree', () => {
    for (const folder of ['src/core', 'src/http', 'src/cli', 'src/db']) expect(under(folder).length).toBeGreaterThan(0);
  });
});

describe('dependency rules', () => {
  it('src/core never imports h3, commander, @clack/prompts, ora, listhen or undici', () => {
    const found = under('src/core').flatMap(({ file, imports }) =>
      imports.filter((i) => isModule(i.specifier, doorLibraries)).map((i) => `${file} imports ${i.specifier}`));
    expect(found).toEqual([]);
  });

  it('src/core never uses process (it reaches the outside through the context)', () => {
    const found = under('src/core').flatMap(({ file, source, imports }) => [
      ...usesProcess(source).map((line) => `${file}:${line}`),
      ...imports.filter((i) => i.specifier === 'process' || i.specifier === 'node:process').map((i) => `${file} imports ${i.specifier}`),
    ]);
    expect(found).toEqual([]);
  });

  it('no server module imports the admin web app (src/http serves its built files only)', () => {
    const found = files.flatMap(({ file, imports }) => imports.filter((i) => i.target?.startsWith(`${browserApp}/`)).map((i) => `${file} imports ${i.target}`));
    expect(found).toEqual([]);
    expect(existsSync(join(root, browserApp, 'tsconfig.json'))).toBe(true);
  });

  it('src/http and src/cli never import each other (cms serve may start the HTTP server)', () => {
    const crossing = (from: string, to: string) =>
      under(from).flatMap(({ file, imports }) => imports
        .filter((i) => i.target?.startsWith(`${to}/`))
        .filter((i) => !allowed.doorCrossings.some(([f, t]) => f === file && t === i.target))
        .map((i) => `${file} imports ${i.target}`));
    expect([...crossing('src/http', 'src/cli'), ...crossing('src/cli', 'src/http')]).toEqual([]);
  });

  it('a module that finds a file relative to itself sits two folders below the root, where the CLI bundle runs it from', () => {
    // dist/cli-bundle/*.js holds the CLI's modules: `new URL('../../x', import.meta.url)` finds the
    // same file from there only when the module was itself at dist/<folder>/ (src/<folder>/).
    const found = files.filter(({ source }) => /new URL\(\s*['`"]\.\.?\//.test(stripComments(source)) && /import\.meta\.url/.test(source))
      .map(({ file }) => file)
      .filter((file) => file.split('/').length !== 3);
    expect(found).toEqual([]);
    expect(files.some(({ file }) => file === 'src/lib/package-files.ts')).toBe(true);
  });

  it('src/client (cms/client, for browsers and edge runtimes) imports nothing outside itself and no node: module, nor process', () => {
    const found = under('src/client').flatMap(({ file, source, imports }) => [
      ...imports.filter((i) => !i.target?.startsWith('src/client/')).map((i) => `${file} imports ${i.specifier}`),
      ...usesProcess(source).map((line) => `${file}:${line} uses process`),
    ]);
    expect(under('src/client').length).toBeGreaterThan(0);
    expect(found).toEqual([]);
  });

  it('the client knows every error code of the core', async () => {
    const { cmsErrorCodes } = await import('../src/client/index.js');
    const { errorCodes } = await import('../src/core/errors.js');
    expect([...cmsErrorCodes]).toEqual([...errorCodes]);
  });

  it('src/http and src/cli reach the database only through operations', () => {
    const found = [...under('src/http'), ...under('src/cli')].flatMap(({ file, imports }) => imports.flatMap((i) => {
      if (isModule(i.specifier, databaseLibraries)) return [`${file} imports ${i.specifier}`];
      if (!i.target?.startsWith('src/db/') || i.typeOnly) return [];
      const values = i.names?.filter((n) => !n.startsWith('type '));
      const permitted = allowed.dbValues[i.target] ?? [];
      if (values && values.every((n) => permitted.includes(n))) return [];
      return [`${file} imports ${values ? values.join(', ') : '*'} from ${i.target}`];
    }));
    expect(found).toEqual([]);
  });
});

describe('database migrations', () => {
  const journal = JSON.parse(readFileSync(join(root, 'db-migrations/meta/_journal.json'), 'utf8')) as {
    entries: Array<{ idx: number; when: number; tag: string }>;
  };

  it('the journal lists its entries in order: idx ascending from 0, when ascending', () => {
    expect(journal.entries.length).toBeGreaterThan(0);
    journal.entries.forEach((entry, i) => {
      expect(entry.idx, entry.tag).toBe(i);
      if (i > 0) expect(entry.when, entry.tag).toBeGreaterThan(journal.entries[i - 1]!.when);
    });
  });

  it('every journal entry has its SQL file, and every SQL file is in the journal', () => {
    const missing = journal.entries.filter((e) => !existsSync(join(root, 'db-migrations', `${e.tag}.sql`))).map((e) => e.tag);
    expect(missing).toEqual([]);
    const sql = readdirSync(join(root, 'db-migrations')).filter((n) => n.endsWith('.sql')).map((n) => n.replace(/\.sql$/, ''));
    expect(sql.sort()).toEqual(journal.entries.map((e) => e.tag).sort());
  });
});

/** Strongly connected groups of two or more modules (Tarjan), each listed from its first file. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

describe('import cycles', () => {
  it('the cycle finder finds a cycle through three modules and none in a chain', () => {
    expect(cyclesOf(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(new Map([['a', ['b']], ['b', ['c']], ['c', []]]))).toEqual([]);
  });

  it('no module of src/ imports itself back through others (type-only imports aside)', () => {
    const graph = new Map(files.map(({ file, imports }) => [file, imports.filter((i) => !i.typeOnly && i.target).map((i) => i.target!)]));
    expect(cyclesOf(graph)).toEqual([]);
  });
});

/** The `as` casts of a source file (not `as const`), with whether a comment gives the reason. */
function castsOf(file: string, source: string): Array<{ at: string; text: string; explained: boolean }> {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const lines = source.split('\n');
  const out: Array<{ at: string; text: string; explained: boolean }> = [];
  const visit = (node: ts.Node) => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && node.type.getText(sf) !== 'const') {
      const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      // The reason sits in a comment on the cast's line or on the line just above it.
      const explained = /\/\/|\/\*/.test(lines[line] ?? '') || /^\s*(\/\/|\*|\/\*)/.test(lines[line - 1] ?? '');
      out.push({ at: `${file}:${line + 1}`, text: node.getText(sf).slice(0, 80), explained });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe('type casts', () => {
  it('the cast reader counts `as` casts but not `as const`, and sees the comment that explains one', () => {
    const source = [
      'const a = x as string;',
      'const b = [1] as const;',
      '// the driver answers untyped rows',
      'const c = rows as Row[];',
      'const d = <number>y; // legacy',
    ].join('\n');
    expect(castsOf('x.ts', source).map((c) => [c.at, c.explained])).toEqual([['x.ts:1', false], ['x.ts:4', true], ['x.ts:5', true]]);
  });

  const casts = files.flatMap(({ file, source }) => castsOf(file, source));

  it('src/ holds fewer than 60 casts (types say what values are; a cast is the exception)', () => {
    expect(casts.length, casts.map((c) => `${c.at} ${c.text}`).join('\n')).toBeLessThan(60);
  });

  it('every cast in src/ says why in a comment beside it or just above it', () => {
    expect(casts.filter((c) => !c.explained).map((c) => `${c.at} ${c.text}`)).toEqual([]);
  });

  it('no `as never` and no `as unknown as` in src/', () => {
    expect(casts.filter((c) => / as (never|unknown as .*)$/.test(c.text)).map((c) => c.at)).toEqual([]);
  });
});

/**
 * Operations with one door, each on purpose. Everything else in the registry is run by an HTTP
 * route and by a CLI command.
 */
const oneDoor: Record<string, { door: 'http' | 'cli'; why: string }> = {
  'auth.login': { door: 'http', why: 'members sign in to the browser session; the terminal is trusted as it is and signs in to nothing' },
  'auth.logout': { door: 'http', why: 'members sign in to the browser session; the terminal is trusted as it is and signs in to nothing' },
  'auth.me': { door: 'http', why: 'members sign in to the browser session; the terminal is trusted as it is and signs in to nothing' },
  'delivery.pages.list': { door: 'http', why: 'the public content API for websites, behind API keys; the terminal reads content through pages/items get and list (drafts included)' },
  'delivery.pages.get': { door: 'http', why: 'the public content API for websites, behind API keys; the terminal reads content through pages/items get and list (drafts included)' },
  'delivery.items.list': { door: 'http', why: 'the public content API for websites, behind API keys; the terminal reads content through pages/items get and list (drafts included)' },
  'delivery.items.get': { door: 'http', why: 'the public content API for websites, behind API keys; the terminal reads content through pages/items get and list (drafts included)' },
  'blog.delivery.posts': { door: 'http', why: 'the public blog API for websites, behind API keys; the terminal reads posts through blog posts get and list' },
  'blog.delivery.post': { door: 'http', why: 'the public blog API for websites, behind API keys; the terminal reads posts through blog posts get and list' },
  'blog.delivery.authors': { door: 'http', why: 'the public blog API for websites, behind API keys; the terminal reads posts through blog posts get and list' },
  'blog.delivery.categories': { door: 'http', why: 'the public blog API for websites, behind API keys; the terminal reads posts through blog posts get and list' },
  'blog.delivery.tags': { door: 'http', why: 'the public blog API for websites, behind API keys; the terminal reads posts through blog posts get and list' },
  'pages.autosave': { door: 'http', why: 'the admin editor saves drafts as an editor types; the terminal saves with pages update' },
  'items.autosave': { door: 'http', why: 'the admin editor saves drafts as an editor types; the terminal saves with items update' },
  'media.migrateStorage': { door: 'cli', why: 'copies every project\'s media files between stores before the operator switches the configuration: a task for the terminal, like db status' },
  'media.orphans': { door: 'cli', why: 'the operator\'s cleanup of stored files no media row names, across every project: a task for the terminal' },
  'pages.version': { door: 'http', why: 'the admin editor diffs a stored version against the draft; the terminal lists versions and restores them' },
  'items.version': { door: 'http', why: 'the admin editor diffs a stored version against the draft; the terminal lists versions and restores them' },
  'settings.get': { door: 'http', why: 'the admin app reads the server configuration it needs (the preview URL template); at the terminal the configuration is the cms.config.json file' },
  'media.file': { door: 'http', why: 'serves the bytes of a file at its public URL; the terminal shows a file and its URL with media get' },
  'members.directory': { door: 'http', why: 'the admin editor\'s user reference picker names the members; at the terminal `cms users list` shows them' },
  'members.list': { door: 'http', why: 'the admin API lists members; `cms users list` lists the same members through users.list' },
  'types.list': { door: 'http', why: 'the CLI keeps schemas as code: `cms schema pull` writes every type to files, `cms schema push` applies edits and removals, `cms schema list` lists them' },
  'types.get': { door: 'http', why: 'the CLI keeps schemas as code: `cms schema pull` writes every type to files, `cms schema push` applies edits and removals, `cms schema list` lists them' },
  'types.update': { door: 'http', why: 'the CLI keeps schemas as code: `cms schema pull` writes every type to files, `cms schema push` applies edits and removals, `cms schema list` lists them' },
  'types.delete': { door: 'http', why: 'the CLI keeps schemas as code: `cms schema pull` writes every type to files, `cms schema push` applies edits and removals, `cms schema list` lists them' },
  'schema.push': { door: 'cli', why: 'schemas as code: files in the project folder, pushed from the terminal; the admin API edits types one by one' },
  'schema.pull': { door: 'cli', why: 'schemas as code: writes files in the project folder; the admin API reads types one by one' },
  'schema.diff': { door: 'cli', why: 'schemas as code: compares the files in the project folder with the database' },
  'schema.list': { door: 'cli', why: 'the terminal\'s overview of all kinds of types; the admin API lists types by kind' },
  'projects.create': { door: 'cli', why: 'projects are made by whoever runs the server (`cms init`, `cms projects create`); members over HTTP work inside one' },
  'users.create': { door: 'cli', why: 'accounts are made by whoever runs the server (there is no sign-up over HTTP); owners then add members' },
  'users.list': { door: 'cli', why: 'the terminal\'s member list; the admin API has members.list' },
  'project.export': { door: 'cli', why: 'an archive file of the whole project, written where the operator runs the command; the admin API reads and writes resources one by one' },
  'project.import': { door: 'cli', why: 'loads an archive file from the operator\'s disk into the project in one transaction; the admin API writes resources one by one' },
  'db.status': { door: 'cli', why: 'which database and which database migrations: a question for the operator at the terminal' },
  'content.publishDue': { door: 'cli', why: '`cms serve` runs it every minute by itself; `cms pages publish-due` is for a cron job when no server runs' },
  'webhooks.process': { door: 'cli', why: '`cms serve` sends deliveries by itself; the command is for a cron job when no server runs' },
};

/** Every quoted string of a folder's sources that names an operation. */
function operationNamesUsedIn(folder: string): Set<string> {
  const names = new Set<string>();
  for (const { source } of under(folder)) {
    for (const m of stripComments(source).matchAll(/['"`]([a-z]+(?:\.[a-zA-Z]+)+)['"`]/g)) {
      if (Object.hasOwn(operations, m[1]!)) names.add(m[1]!);
    }
  }
  return names;
}

describe('operations', () => {
  const names = Object.keys(operations).sort();

  it('every operation is defined under its name, written out (a search for the name lands on it)', () => {
    const core = under('src/core').map((f) => stripComments(f.source)).join('\n');
    const missing = names.filter((name) => !core.includes(`name: '${name}'`));
    expect(missing).toEqual([]);
    for (const name of names) expect(operations[name as keyof typeof operations].name).toBe(name);
  });

  it('every operation is run by the HTTP API and by the CLI, or is listed with the reason it has one door', () => {
    const http = operationNamesUsedIn('src/http');
    const cli = operationNamesUsedIn('src/cli');
    const doors = (name: string) => [http.has(name) ? 'http' : null, cli.has(name) ? 'cli' : null].filter(Boolean).join('+') || 'none';
    const unexpected = names.filter((name) => {
      const listed = oneDoor[name];
      const found = doors(name);
      return listed ? found !== listed.door : found !== 'http+cli';
    }).map((name) => `${name}: ${doors(name)}${oneDoor[name] ? ` (listed as ${oneDoor[name].door} only)` : ''}`);
    expect(unexpected).toEqual([]);
  });

  it('the one-door list names only operations that exist', () => {
    expect(Object.keys(oneDoor).filter((name) => !Object.hasOwn(operations, name))).toEqual([]);
  });
});
