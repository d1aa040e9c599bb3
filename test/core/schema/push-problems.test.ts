import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../../src/lib/rows.js';
import { testDriver } from '../../helpers/db.js';
import { createTestCms, type TestCms } from '../../helpers/engine.js';

/**
 * decisions §4: `cms schema push` "validates every file (all errors reported at once, with file and
 * JSON path)". A definition with a problem of its own is still checked against the others (its
 * components, collections, page types), so one push names every problem; and an invalid component
 * is still known to the types that use it.
 */
describe(`schema problems, all at once (${testDriver})`, () => {
  let t: TestCms;
  beforeAll(async () => { t = await createTestCms(); });
  afterAll(async () => { await t.close(); });

  const mixed = {
    slug: 'mix',
    name: 'Mix',
    fields: [
      { name: '1bad', type: 'text' },
      { name: 'nc', type: 'nestedComponent', options: { componentSlug: 'ghost' } },
      { name: 'brand', type: 'reference', options: { collectionType: 'brands' } },
      { name: 'hero', type: 'nestedComponent', options: { componentSlug: 'banner' } },
    ],
  };
  // Invalid itself (a field name), but it exists: "banner" is not an unknown component.
  const banner = { slug: 'banner', name: 'Banner', fields: [{ name: 'bad name', type: 'text' }] };

  const problemsOf = async (run: Promise<unknown>) => {
    const error = await run.then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
    return (error as { details: Array<{ file?: string; slug: string; path: string; message: string }> }).details // the error's details: the issues
      .map((i) => `${i.file ?? i.slug}: ${i.path}: ${i.message}`);
  };

  it('push and diff report a file\'s own problems and its unknown targets in one answer', async () => {
    const documents = {
      collections: [{ definition: mixed, file: 'schemas/collections/mix.json' }],
      components: [{ definition: banner, file: 'schemas/components/banner.json' }],
    };
    for (const op of ['schema.diff', 'schema.push'] as const) {
      const problems = await problemsOf(t.run(op, documents));
      expect(problems).toEqual([
        expect.stringMatching(/^schemas\/collections\/mix\.json: fields\[0\]\.name: /),
        expect.stringMatching(/^schemas\/components\/banner\.json: fields\[0\]\.name: /),
        'schemas/collections/mix.json: fields[1].options.componentSlug: unknown component "ghost"',
        'schemas/collections/mix.json: fields[2].options.collectionType: unknown collection "brands"',
      ]);
    }
    expect(await t.run('types.list', { kind: 'collections' })).toEqual([]);
  });

  it('creating one type over the admin API reports its own problems and its unknown targets together', async () => {
    const problems = await problemsOf(t.run('types.create', { kind: 'collections', definition: mixed }));
    expect(problems).toEqual([
      expect.stringMatching(/^mix: fields\[0\]\.name: /),
      'mix: fields[1].options.componentSlug: unknown component "ghost"',
      'mix: fields[3].options.componentSlug: unknown component "banner"',
      'mix: fields[2].options.collectionType: unknown collection "brands"',
    ]);
  });
});

/**
 * decisions §4: push "never drops a type that has content unless --force". A component has no
 * entries of its own; its content is the values of it that pages and items hold.
 */
describe(`deleting a component that content holds (${testDriver})`, () => {
  let t: TestCms;
  beforeAll(async () => { t = await createTestCms(); });
  afterAll(async () => { await t.close(); });

  const tip = { slug: 'tip', name: 'Tip', fields: [{ name: 'text', type: 'text' }] };
  // Named like a reference's _type: a page reference ({ _ref, _type: "page" }) is not a value of it.
  const page = { slug: 'page', name: 'Page', fields: [{ name: 'text', type: 'text' }] };
  const blocks = {
    slug: 'blocks', name: 'Blocks', fields: [
      { name: 'body', type: 'componentPicker' },
      { name: 'link', type: 'reference', options: { referenceType: 'page' } },
    ],
  };
  const landing = { slug: 'landing', name: 'Landing', fields: [{ name: 'title', type: 'text' }] };
  const documents = (...components: Array<typeof tip>) => ({
    components: components.map((definition) => ({ definition })),
    collections: [{ definition: blocks }],
    pageTypes: [{ definition: landing }],
  });

  it('is refused without force while a page or an item holds a value of it, in any of its versions', async () => {
    await t.run('schema.push', documents(tip, page));
    const home = await t.run('pages.create', { pageTypeSlug: 'landing', name: 'Home', slug: 'home', fields: { title: 'Hi' }, status: 'published' });
    await t.run('items.create', { collectionTypeSlug: 'blocks', name: 'B', slug: 'b', fields: { body: [{ _type: 'tip', text: 'hi' }], link: { _ref: home.id, _type: 'page' } }, status: 'published' });
    // The draft no longer holds it; the published version still does.
    await t.run('items.update', { collection: 'blocks', ref: { slug: 'b' }, fields: { body: [] } });

    const refused = await t.run('schema.push', documents(page)).then(() => null, (e: unknown) => e);
    expect(refused).toMatchObject({ code: 'HAS_REFERENCES', details: { types: [{ kind: 'components', slug: 'tip', contentCount: 1 }] } });
    await expect(t.run('types.delete', { kind: 'components', slug: 'tip' })).rejects.toMatchObject({ code: 'HAS_REFERENCES', message: expect.stringContaining('in the content of 1 entries') });
    expect((await t.run('types.list', { kind: 'components' })).map((c: { slug: string }) => c.slug)).toEqual(['page', 'tip']);

    // "page" is only a reference's _type in the content: deleting it is allowed.
    await t.run('schema.push', documents(tip));
    expect((await t.run('types.list', { kind: 'components' })).map((c: { slug: string }) => c.slug)).toEqual(['tip']);
    await t.run('schema.push', { ...documents(), force: true });
    expect(await t.run('types.list', { kind: 'components' })).toEqual([]);
    // Deleted "with their content": the instance went from the published content too (a page
    // reference, whose _type names no component, stays), so the item publishes again.
    const [row] = rowsOf<{ published: unknown }>(await t.cms.db.execute(sql`select published_content as published from collection_items where slug = 'b'`));
    expect(row!.published).toEqual({ body: [], link: { _ref: home.id, _type: 'page' } });
    const item = await t.run('items.publish', { collection: 'blocks', ref: { slug: 'b' } });
    expect(item).toMatchObject({ status: 'published' });
  });

  it('refuses a type slug over 128 characters at its path (a long random one answered 500 from the unique index)', async () => {
    const random = Array.from({ length: 3000 }, (_, i) => 'abcdefghijklmnopqrstuvwxyz'[(i * 7919 + (i >> 3) * 31) % 26]).join('');
    for (const slug of [random, 'a'.repeat(129)]) {
      await expect(t.run('types.create', { kind: 'pageTypes', definition: { slug, name: 'Long', fields: [] } }))
        .rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'slug', message: 'must be at most 128 characters' }] });
    }
    expect(await t.run('types.create', { kind: 'pageTypes', definition: { slug: 'a'.repeat(128), name: 'Long', fields: [] } })).toMatchObject({ slug: 'a'.repeat(128) });
  });
});

describe(`renaming a type over the admin API (${testDriver})`, () => {
  let t: TestCms;
  beforeAll(async () => { t = await createTestCms(); });
  afterAll(async () => { await t.close(); });

  it('refuses a slug another type has (409 SLUG_EXISTS), and one other types name', async () => {
    await t.run('schema.push', {
      components: [{ definition: { slug: 'cta', name: 'CTA', fields: [{ name: 'label', type: 'text' }] } }],
      collections: [
        { definition: { slug: 'brands', name: 'Brands', fields: [{ name: 'name', type: 'text' }] } },
        { definition: { slug: 'tags', name: 'Tags', fields: [] } },
        { definition: { slug: 'loose', name: 'Loose', fields: [] } },
      ],
      pageTypes: [{ definition: { slug: 'landing', name: 'Landing', fields: [
        { name: 'brand', type: 'reference', options: { collectionType: 'brands' } },
        { name: 'cta', type: 'nestedComponent', options: { componentSlug: 'cta' } },
      ] } }],
    });
    await expect(t.run('types.update', { kind: 'collections', slug: 'loose', definition: { slug: 'tags', fields: [] } }))
      .rejects.toMatchObject({ code: 'SLUG_EXISTS', message: 'Collection type tags already exists' });
    const named = await t.run('types.update', { kind: 'collections', slug: 'brands', definition: { slug: 'makers', fields: [{ name: 'name', type: 'text' }] } }).catch((e: unknown) => e);
    expect(named).toMatchObject({ code: 'HAS_REFERENCES', message: expect.stringContaining('used by pageTypes/landing'), details: { usedBy: [expect.objectContaining({ kind: 'pageTypes', slug: 'landing' })] } });
    // A type nothing names, and nothing holds, is renamed.
    expect(await t.run('types.update', { kind: 'collections', slug: 'loose', definition: { slug: 'free', fields: [] } })).toMatchObject({ slug: 'free' });
    expect((await t.run('types.list', { kind: 'collections' })).map((c: { slug: string }) => c.slug).sort()).toEqual(['brands', 'free', 'tags']);
  });

  it('refuses renaming a component whose values content holds', async () => {
    await t.run('types.create', { kind: 'components', definition: { slug: 'quote', name: 'Quote', fields: [{ name: 'text', type: 'text' }] } });
    await t.run('types.create', { kind: 'collections', definition: { slug: 'quotes', name: 'Quotes', fields: [{ name: 'body', type: 'componentPicker' }] } });
    await t.run('items.create', { collectionTypeSlug: 'quotes', name: 'Q', slug: 'q', fields: { body: [{ _type: 'quote', text: 'Hi' }] } });
    await expect(t.run('types.update', { kind: 'components', slug: 'quote', definition: { slug: 'saying', name: 'Quote', fields: [{ name: 'text', type: 'text' }] } }))
      .rejects.toMatchObject({ code: 'HAS_REFERENCES', message: expect.stringContaining('in the content of 1 entries') });
    expect((await t.run('types.list', { kind: 'components' })).map((c: { slug: string }) => c.slug)).toContain('quote');
  });
});
