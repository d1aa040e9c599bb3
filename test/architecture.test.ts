import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The dependency rules of STYLE.md, read from the import lines of src/. */

const root = fileURLToPath(new URL('..', import.meta.url));

/** Allowed exceptions, each one on purpose. */
const allowed = {
  /** `cms serve` starts the HTTP server: the only place where one door reaches into the other. */
  doorCrossings: [['src/cli/serve-process.ts', 'src/http/serve.ts']],
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

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
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

  it('src/http and src/cli never import each other (cms serve may start the HTTP server)', () => {
    const crossing = (from: string, to: string) =>
      under(from).flatMap(({ file, imports }) => imports
        .filter((i) => i.target?.startsWith(`${to}/`))
        .filter((i) => !allowed.doorCrossings.some(([f, t]) => f === file && t === i.target))
        .map((i) => `${file} imports ${i.target}`));
    expect([...crossing('src/http', 'src/cli'), ...crossing('src/cli', 'src/http')]).toEqual([]);
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

describe('migrations', () => {
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
