import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ItemWriteShape, PageWriteShape } from '../../src/core/content/shapes.js';
import { operations, type InputOf, type OutputOf } from '../../src/core/registry.js';

const sourceOf = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? sourceOf(join(dir, e.name)) : e.name.endsWith('.ts') ? [readFileSync(join(dir, e.name), 'utf8')] : []);

describe('the operation registry', () => {
  it('files every operation under its own name', () => {
    for (const [key, op] of Object.entries(operations)) expect(op.name, key).toBe(key);
  });

  it('finds every operation by searching the source for its name', () => {
    const core = sourceOf(join(import.meta.dirname, '../../src/core')).join('\n');
    const missing = Object.keys(operations).filter((name) => !core.includes(`name: '${name}',`));
    expect(missing).toEqual([]);
  });

  it('types each operation by its own input and output', () => {
    expectTypeOf<OutputOf<'pages.create'>>().toEqualTypeOf<PageWriteShape>();
    expectTypeOf<OutputOf<'items.publish'>>().toEqualTypeOf<ItemWriteShape>();
    expectTypeOf<InputOf<'pages.create'>>().toHaveProperty('pageTypeSlug').toEqualTypeOf<string>();
    expectTypeOf<InputOf<'items.create'>>().toHaveProperty('collectionTypeSlug').toEqualTypeOf<string>();
    expectTypeOf<InputOf<'items.create'>>().not.toHaveProperty('seo');
  });
});
