import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MigrationView } from '../../src/core/migrations/index.js';
import { expectedCounts } from '../fakes/buttercms/account.js';
import { startFakeButter, type FakeButter } from '../fakes/buttercms/server.js';
import { createImportHarness, type ImportHarness } from './support.js';

interface Report {
  source: { pageTypes: { configured: string[]; discovered: string[]; missing: string[] }; collections: { discovered: string[] } };
  types: Record<'components' | 'pageTypes' | 'collections', Array<{ slug: string; source: string; fields: Array<{ name: string; type: string; options?: any }> }>>;
  counts: Record<string, unknown>;
  warnings: string[];
}

describe('migration modes', () => {
  let h: ImportHarness;
  let butter: FakeButter;
  beforeAll(async () => {
    h = await createImportHarness();
    butter = await startFakeButter();
  });
  afterAll(async () => {
    await butter?.close();
    await h?.close();
  });
  beforeEach(() => { butter.requests.length = 0; });

  describe('dry run', () => {
    let before: Record<string, number>;
    let dry: MigrationView;
    beforeAll(async () => {
      before = await h.contentCounts();
      dry = await h.migrate(butter, 'dry_run');
    });

    it('writes nothing: no schema, content, media rows or files, events', async () => {
      expect(dry.status, dry.error ?? '').toBe('completed');
      expect(await h.contentCounts()).toEqual(before);
      expect(Object.values(before).every((n) => n === 0)).toBe(true);
      expect(existsSync(join(h.config.dataDir, 'media'))).toBe(false);
      expect(butter.requests.some((r) => r.path.startsWith('/media/'))).toBe(false);
      const logs = await h.logs(dry.id);
      expect(logs.at(-1)?.message).toBe('Dry run complete: nothing was written');
    });

    it('reports the types and fields it would create, with their inferred types', () => {
      const report = dry.report as unknown as Report;
      expect(report.types.components.map((c) => c.slug).sort()).toEqual(expectedCounts.components);
      expect(report.types.pageTypes.map((t) => t.slug)).toEqual(['landing-page', 'product-page', 'event-page', 'home', 'about', 'contact']);
      expect(report.types.pageTypes.find((t) => t.slug === 'home')!.source).toBe('single page home');
      expect(report.types.collections.map((t) => t.slug)).toEqual(['people', 'products', 'navigation-menu-item']);
      const people = report.types.collections.find((t) => t.slug === 'people')!;
      expect(Object.fromEntries(people.fields.map((f) => [f.name, f.type]))).toEqual({
        name: 'text', role: 'text', photo: 'image', joined: 'date', active: 'boolean', years: 'number', bio: 'wysiwyg', mentor: 'reference',
      });
      expect(people.fields.find((f) => f.name === 'mentor')!.options).toMatchObject({ referenceType: 'collectionItem', collectionType: 'people' });
      const product = report.types.pageTypes.find((t) => t.slug === 'product-page')!;
      expect(product.fields.find((f) => f.name === 'gallery')).toMatchObject({ type: 'repeater' });
      expect(product.fields.find((f) => f.name === 'related_pages')!.options).toMatchObject({ referenceType: 'page', pageType: 'product-page', multiple: true });
    });

    it('reports counts per kind and warnings, the limits of discovery among them', () => {
      const report = dry.report as unknown as Report;
      expect(report.counts).toMatchObject({
        pages: expectedCounts.pages,
        singlePages: expectedCounts.singlePages,
        pagesByType: expectedCounts.pageTypes,
        collectionItems: expectedCounts.collectionItems,
        itemsByCollection: expectedCounts.collections,
        blogPosts: expectedCounts.posts,
        blogAuthors: expectedCounts.authors,
        blogCategories: expectedCounts.categories,
        blogTags: expectedCounts.tags,
        mediaUrls: expectedCounts.media.urls,
      });
      expect(report.source.pageTypes.discovered).toEqual(['event-page']);
      expect(report.warnings.join('\n')).toMatch(/cannot list its page types or collections/);
      expect(report.warnings.join('\n')).toMatch(/samples disagree/);
    });

    it('warns about what it could not discover and what the source does not have', async () => {
      const m = await h.migrate(butter, 'dry_run', { pageTypes: ['typo-type'], collections: [] });
      expect(m.status).toBe('completed');
      const report = m.report as unknown as Report;
      // Only single pages were read: nothing they contain points at the landing or product pages.
      expect(report.counts).toMatchObject({ pages: expectedCounts.singlePages });
      expect(report.source.pageTypes).toEqual({ configured: ['typo-type'], discovered: [], missing: ['typo-type'] });
      // The collections are met in content (reference URIs name them).
      expect(report.source.collections.discovered.sort()).toEqual(['navigation_menu_item', 'people', 'products']);
      const warnings = report.warnings.join('\n');
      expect(warnings).toMatch(/page type "typo-type".*no pages/);
      expect(warnings).toMatch(/neither configured nor referenced were not discovered/);
      const logs = await h.logs(m.id);
      expect(logs.filter((l) => l.level === 'warning').map((l) => l.message).join('\n')).toMatch(/cannot list its page types/);
      expect(await h.contentCounts()).toEqual(before);
    });
  });

  it('schema only creates the page types, collections and components, and nothing else', async () => {
    const m = await h.migrate(butter, 'schema_only');
    expect(m.status, m.error ?? '').toBe('completed');
    expect(m.stats).toMatchObject({ components: 5, pageTypes: 6, collections: 3 });
    const counts = await h.contentCounts();
    expect(counts).toMatchObject({
      page_types: 6, collection_types: 3, components: 5, pages: 0, collection_items: 0, media: 0, blog_posts: 0, blog_authors: 0,
    });
    expect(butter.requests.some((r) => r.path.startsWith('/media/'))).toBe(false);
    expect(butter.requests.some((r) => r.path === '/v2/posts/')).toBe(false);
    // The same schema again: reused as it is.
    const again = await h.migrate(butter, 'schema_only');
    expect(again.status).toBe('completed');
    expect((await h.logs(again.id)).map((l) => l.message)).toContain('Reused the existing page type landing-page as it is');
    expect((await h.contentCounts()).page_types).toBe(6);
  });

  it('adds missing fields to a type the project has, and keeps the ones it has', async () => {
    await h.run('types.update', { kind: 'collections', slug: 'products', definition: { fields: [
      { name: 'sku', type: 'text' },
      { name: 'legacy_code', type: 'text' },
    ] } });
    const m = await h.migrate(butter, 'schema_only');
    expect(m.status, m.error ?? '').toBe('completed');
    const products = await h.run<{ fields: Array<{ name: string }> }>('types.get', { kind: 'collections', slug: 'products' });
    expect(products.fields.map((f) => f.name)).toEqual(['sku', 'legacy_code', 'name', 'price', 'in_stock', 'description', 'image', 'spec_sheet', 'designer', 'released']);
    expect((await h.logs(m.id)).map((l) => l.message)).toContain('Added fields name, price, in_stock, description, image, spec_sheet, designer, released to the existing collection products');
  });

  it('keeps a field the project has with another string type (textarea for text, select for text), and says so', async () => {
    await h.run('types.update', { kind: 'collections', slug: 'people', definition: { fields: [
      { name: 'name', type: 'textarea' },
      { name: 'role', type: 'select', options: { choices: [{ label: 'Engineer', value: 'Engineer' }, { label: 'Tester', value: 'Tester' }] } },
    ] } });
    const dry = await h.migrate(butter, 'dry_run');
    const warnings = (dry.report as unknown as Report).warnings;
    expect(warnings).toContain('collections/people.name: the project\'s textarea field takes the imported text values as they are');
    expect(warnings).toContainEqual(expect.stringMatching(/^collections\/people\.role: the project's select field takes the imported text values as they are/));
    const m = await h.migrate(butter, 'schema_only');
    expect(m.status, m.error ?? '').toBe('completed');
    const people = await h.run<{ fields: Array<{ name: string; type: string }> }>('types.get', { kind: 'collections', slug: 'people' });
    expect(people.fields.slice(0, 2).map((f) => f.type)).toEqual(['textarea', 'select']);
  });

  it('stops before writing anything when a type the project has cannot hold the imported values', async () => {
    await h.run('types.update', { kind: 'collections', slug: 'people', definition: { fields: [{ name: 'name', type: 'number' }] } });
    const before = await h.contentCounts();
    const m = await h.migrate(butter, 'full');
    expect(m.status).toBe('failed');
    expect(m.error).toMatch(/does not fit the project's.*nothing was written/);
    const logs = await h.logs(m.id);
    expect(logs.filter((l) => l.level === 'error').map((l) => l.message)).toContain('collections/people.name: the project has a number field, the import needs text');
    expect(await h.contentCounts()).toEqual(before);
    // A dry run shows the same problem as a warning.
    const dry = await h.migrate(butter, 'dry_run');
    expect(dry.status).toBe('completed');
    expect((dry.report as unknown as Report).warnings).toContain('collections/people.name: the project has a number field, the import needs text');
  });
});
