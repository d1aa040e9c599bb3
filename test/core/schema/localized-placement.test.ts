import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDriver } from '../../helpers/db.js';
import { createTestCms, type TestCms } from '../../helpers/engine.js';

/**
 * docs/localization.md: "Only top-level fields can be marked (mark the outer field, not a
 * component's or repeater's own fields)", and `requiredInAllLocales` goes "with `required` and
 * `localized`". A mark where it has no effect is refused at its path: before, a repeater's own
 * `localized` was kept and ignored, and a write in another locale replaced the default's value.
 */
describe(`where "localized" may stand (${testDriver})`, () => {
  let t: TestCms;
  beforeAll(async () => { t = await createTestCms(); });
  afterAll(async () => { await t.close(); });

  const problemsOf = async (run: Promise<unknown>) => {
    const error = await run.then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
    return (error as { details: Array<{ slug: string; path: string; message: string }> }).details // the error's details: the issues
      .map((i) => `${i.slug}: ${i.path}: ${i.message}`);
  };

  it('refuses it on a repeater\'s own fields and a component\'s, and requiredInAllLocales alone, all at once', async () => {
    const documents = {
      collections: [{ definition: { slug: 'dishes', name: 'Dishes', fields: [
        { name: 'steps', type: 'repeater', options: { fields: [{ name: 't', type: 'text', localized: true }] } },
        { name: 'a', type: 'text', requiredInAllLocales: true },
        { name: 'b', type: 'text', localized: true, requiredInAllLocales: true },
        { name: 'c', type: 'text', required: true, localized: true, requiredInAllLocales: true },
        { name: 'd', type: 'repeater', localized: true, options: { fields: [{ name: 't', type: 'text', localized: false }] } },
      ] } }],
      components: [{ definition: { slug: 'quote', name: 'Quote', fields: [{ name: 'text', type: 'text', localized: true }] } }],
    };
    const expected = [
      'dishes: fields[0].options.fields[0].localized: not allowed on a repeater\'s own fields: mark the field that holds it',
      'dishes: fields[1].requiredInAllLocales: needs "required": true and "localized": true beside it',
      'dishes: fields[2].requiredInAllLocales: needs "required": true and "localized": true beside it',
      'quote: fields[0].localized: not allowed on a component\'s own fields: mark the field that holds it',
    ];
    for (const op of ['schema.diff', 'schema.push'] as const) expect(await problemsOf(t.run(op, documents))).toEqual(expected);
    expect(await t.run('types.list', { kind: 'collections' })).toEqual([]);
    // The admin API's create checks the same.
    expect(await problemsOf(t.run('types.create', { kind: 'components', definition: documents.components[0]!.definition })))
      .toEqual([expected[3]]);
  });
});
