import ts from 'typescript';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeIdempotencyKey } from '../../src/client/index.js';
import { generateTypeScript } from '../../src/core/types/typescript.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('cms types on edge cases of the schema', () => {
  it('an empty project gives the helpers and an empty CmsTypes', () => {
    const text = generateTypeScript({ pageTypes: [], collections: [], components: [] });
    expect(text).toContain('export interface CmsTypes {\n  pageTypes: {\n  };\n  collections: {\n  };\n}\n');
  });

  it('slugs that give the same name are told apart in slug order; digits first get an underscore', () => {
    const text = generateTypeScript({
      pageTypes: [],
      collections: [
        { slug: 'a1', name: 'A1', fields: [{ name: 'x', type: 'text' }] },
        { slug: 'a-1', name: 'A-1', fields: [{ name: 'y', type: 'text' }] },
        { slug: '2024-news', name: 'News', fields: [{ name: 'z', type: 'text', label: 'Multi\nline */ label' }] },
      ],
      components: [],
    });
    expect(text).toContain('export interface A1ItemFields {\n  /** text */\n  y?: string | null;');
    expect(text).toContain('export interface A1Item_2Fields {\n  /** text */\n  x?: string | null;');
    expect(text).toContain('export type A1Item_2 = CmsItem<"a1", A1Item_2Fields>;');
    expect(text).toContain('    "a-1": { fields: A1ItemFields; localized: never };\n    "a1": { fields: A1Item_2Fields; localized: never };');
    expect(text).toContain('export interface _2024NewsItemFields {\n  /** Multi line * / label (text) */\n');
  });
});

/** The TypeScript compiler's problems with a file, type-checked under `strict`. */
function typeProblems(text: string): string[] {
  const file = '/virtual/cms-types.ts';
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, skipLibCheck: true };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version) => (name === file ? ts.createSourceFile(name, text, version) : getSourceFile(name, version));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('cms types: names the file declares itself', () => {
  it('a type whose name would be a helper\'s (slug cms: CmsPage, CmsItem) is told apart, and the file compiles', () => {
    const text = generateTypeScript({
      pageTypes: [{ slug: 'cms', name: 'Cms', fields: [{ name: 'title', type: 'text' }] }],
      collections: [
        { slug: 'cms', name: 'Cms', fields: [{ name: 'x', type: 'text' }] },
        { slug: 'cms-page', name: 'Cms page', fields: [{ name: 'y', type: 'text' }] },
        { slug: 'cms-types', name: 'Cms types', fields: [{ name: 'z', type: 'text' }] },
      ],
      components: [],
    });
    expect(text).toContain('export type CmsPage_2 = CmsPage<"cms", CmsPage_2Fields>;');
    expect(text).toContain('export type CmsItem_2 = CmsItem<"cms", CmsItem_2Fields>;');
    expect(typeProblems(text)).toEqual([]);
  });
});

describe('Idempotency-Key of the client', () => {
  afterEach(() => { vi.unstubAllGlobals(); });

  it('is a v4 UUID from crypto.randomUUID, and without it from getRandomValues or Math.random', () => {
    expect(makeIdempotencyKey()).toMatch(uuid);
    vi.stubGlobal('crypto', { getRandomValues: (b: Uint8Array) => b.fill(7) });
    expect(makeIdempotencyKey()).toBe('07070707-0707-4707-8707-070707070707');
    vi.stubGlobal('crypto', undefined);
    const keys = new Set(Array.from({ length: 20 }, () => makeIdempotencyKey()));
    expect(keys.size).toBe(20);
    for (const k of keys) expect(k).toMatch(uuid);
  });
});
