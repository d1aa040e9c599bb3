import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
