import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const kindDirs = { pageTypes: 'page-types', collections: 'collections', components: 'components' } as const;
export type KindKey = keyof typeof kindDirs;

export interface SchemaDocument {
  definition: unknown;
  file: string;
}

export interface ReadResult {
  documents: Record<KindKey, SchemaDocument[]>;
  /** Files that are not JSON: reported with the schema's other problems. */
  unreadable: Array<{ file: string; message: string }>;
}

/** Reads `schemas/<kind>/<slug>.json`; `$schema` (the editor hint) is not part of a definition. */
export function readSchemaFiles(schemasDir: string, cwd: string): ReadResult {
  const documents: Record<KindKey, SchemaDocument[]> = { pageTypes: [], collections: [], components: [] };
  const unreadable: ReadResult['unreadable'] = [];
  for (const [kind, dir] of Object.entries(kindDirs) as Array<[KindKey, string]>) {
    const folder = join(schemasDir, dir);
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder).filter((n) => n.endsWith('.json')).sort()) {
      const path = join(folder, name);
      const file = relative(cwd, path) || path;
      try {
        const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) delete (parsed as Record<string, unknown>).$schema;
        documents[kind].push({ definition: parsed, file });
      } catch (e) {
        unreadable.push({ file, message: `not valid JSON: ${(e as Error).message}` });
      }
    }
  }
  return { documents, unreadable };
}

export function writeSchemaFile(schemasDir: string, kind: KindKey, definition: { slug: string }): string {
  const folder = join(schemasDir, kindDirs[kind]);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${definition.slug}.json`);
  writeFileSync(path, JSON.stringify({ $schema: '../cms-schema.json', ...inFileOrder(definition) }, null, 2) + '\n');
  return path;
}

const definitionKeys = ['slug', 'name', 'fields'];
const fieldKeys = ['name', 'label', 'type', 'required', 'defaultValue', 'options'];

/**
 * The database keeps definitions as JSONB, which does not keep key order; files get the order
 * people write them in, so a pulled file diffs cleanly against the one that was pushed.
 */
function inFileOrder<T>(definition: T): T {
  const ordered = (value: unknown, keys: string[]): unknown => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const obj = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of keys) if (k in obj) out[k] = obj[k];
    for (const k of Object.keys(obj)) if (!(k in out)) out[k] = obj[k];
    return out;
  };
  const field = (f: unknown): unknown => {
    const o = ordered(f, fieldKeys) as Record<string, unknown>;
    const options = o?.options as Record<string, unknown> | undefined;
    if (options && Array.isArray(options.fields)) o.options = { ...options, fields: options.fields.map(field) };
    return o;
  };
  const def = ordered(definition, definitionKeys) as Record<string, unknown>;
  if (Array.isArray(def.fields)) def.fields = def.fields.map(field);
  return def as T;
}
