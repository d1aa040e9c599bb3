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
  writeFileSync(path, JSON.stringify({ $schema: '../cms-schema.json', ...definition }, null, 2) + '\n');
  return path;
}
