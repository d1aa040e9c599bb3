import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { schemaFileText } from '../lib/schema-file.js';
import { errorMessage, isJsonObject } from './inputs.js';
import { withoutBom } from '../lib/bom.js';

export const kindDirs = { pageTypes: 'page-types', collections: 'collections', components: 'components' } as const;
export type KindKey = keyof typeof kindDirs;
const kindKeys = ['pageTypes', 'collections', 'components'] as const satisfies readonly KindKey[];

export interface SchemaDocument {
  definition: unknown;
  file: string;
}

export interface ReadResult {
  documents: Record<KindKey, SchemaDocument[]>;
  /**
   * Files that are not JSON (path `(file)`), and files not named after the slug they hold (path
   * `slug`: `schema pull` would write a second file for it): reported with the schema's other problems.
   */
  unreadable: Array<{ file: string; path: '(file)' | 'slug'; message: string }>;
}

/** Reads `schemas/<kind>/<slug>.json`; `$schema` (the editor hint) is not part of a definition. */
export function readSchemaFiles(schemasDir: string, cwd: string): ReadResult {
  const documents: Record<KindKey, SchemaDocument[]> = { pageTypes: [], collections: [], components: [] };
  const unreadable: ReadResult['unreadable'] = [];
  for (const kind of kindKeys) {
    const folder = join(schemasDir, kindDirs[kind]);
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder).filter((n) => n.endsWith('.json')).sort()) {
      const path = join(folder, name);
      const file = relative(cwd, path) || path;
      let parsed: unknown;
      try {
        parsed = JSON.parse(withoutBom(readFileSync(path, 'utf8')));
      } catch (e) {
        unreadable.push({ file, path: '(file)', message: `not valid JSON: ${errorMessage(e)}` });
        continue;
      }
      if (isJsonObject(parsed)) {
        delete parsed.$schema;
        const { slug } = parsed;
        if (typeof slug === 'string' && `${slug}.json` !== name) {
          unreadable.push({ file, path: 'slug', message: `"${slug}" is not the file's name: a definition lives in ${kindDirs[kind]}/<slug>.json (rename the file to ${slug}.json)` });
        }
      }
      documents[kind].push({ definition: parsed, file });
    }
  }
  return { documents, unreadable };
}

/** Schema files (`<kind folder>/<name>.json`) whose name is no type of the set: paths, by kind. */
export function filesWithoutType(schemasDir: string, set: Record<KindKey, ReadonlyArray<{ slug: string }>>): string[] {
  const out: string[] = [];
  for (const kind of kindKeys) {
    const folder = join(schemasDir, kindDirs[kind]);
    if (!existsSync(folder)) continue;
    const slugs = new Set(set[kind].map((d) => d.slug));
    for (const name of readdirSync(folder).filter((n) => n.endsWith('.json')).sort()) {
      if (!slugs.has(name.slice(0, -'.json'.length))) out.push(join(folder, name));
    }
  }
  return out;
}

export function writeSchemaFile(schemasDir: string, kind: KindKey, definition: { slug: string }): string {
  const folder = join(schemasDir, kindDirs[kind]);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${definition.slug}.json`);
  writeFileSync(path, schemaFileText(definition));
  return path;
}

/** The JSON Schema editors use to autocomplete the files (their `$schema` points at it). */
export async function writeJsonSchema(schemasDir: string): Promise<void> {
  const { typeDefinitionJsonSchema } = await import('../core/schema/index.js');
  mkdirSync(schemasDir, { recursive: true });
  writeFileSync(join(schemasDir, 'cms-schema.json'), JSON.stringify(typeDefinitionJsonSchema(), null, 2) + '\n');
}
