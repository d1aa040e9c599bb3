import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages } from '../../../src/db/schema/index.js';
import { testDriver } from '../../helpers/db.js';
import { createTestCms, type TestCms } from '../../helpers/engine.js';

/**
 * A field removed from a type (by `cms schema push` or the admin API) takes its values with it:
 * from the draft, the published content and every locale, so that what is delivered is what the
 * type defines ("fields: content fields defined by the page type") and the entries can still be
 * published.
 */
describe(`a removed field's values (${testDriver})`, () => {
  let t: TestCms;
  beforeAll(async () => { t = await createTestCms(); });
  afterAll(async () => { await t.close(); });

  const post = (fields: Array<Record<string, unknown>>) => ({ pageTypes: [{ definition: { slug: 'post', name: 'Post', fields } }], collections: [], components: [] });
  const title = { name: 'title', type: 'text', localized: true };
  const intro = { name: 'intro', type: 'text', localized: true };
  const note = { name: 'note', type: 'text' };
  /** What the page's row holds: the default locale's content and the other locales' values. */
  const stored = async (slug: string) => {
    const [row] = await t.cms.db.select({ draftContent: pages.draftContent, publishedContent: pages.publishedContent, draftLocales: pages.draftLocales, publishedLocales: pages.publishedLocales })
      .from(pages).where(eq(pages.slug, slug));
    return row;
  };

  it('go with it from the draft, the published content and every locale; the page publishes again', async () => {
    await t.run('locales.add', { code: 'fr' });
    await t.run('schema.push', post([title, intro, note]));
    await t.run('pages.create', { pageTypeSlug: 'post', name: 'A', slug: 'a', fields: { title: 'Hello', intro: 'Intro', note: 'n' }, status: 'published' });
    await t.run('pages.update', { ref: { slug: 'a' }, locale: 'fr', fields: { title: 'Bonjour', intro: 'Intro fr' } });
    await t.run('pages.publish', { ref: { slug: 'a' } });
    // Another page of the type without the field is left as it is.
    await t.run('pages.create', { pageTypeSlug: 'post', name: 'B', slug: 'b', fields: { title: 'Bee' } });

    const plan = await t.run('schema.push', post([title, note]));
    expect(plan.update).toMatchObject([{ kind: 'pageTypes', slug: 'post', fields: { removed: [{ field: 'intro', entriesWithValues: 1 }] } }]);
    expect(await stored('a')).toEqual({
      draftContent: { title: 'Hello', note: 'n' }, publishedContent: { title: 'Hello', note: 'n' },
      draftLocales: { fr: { title: 'Bonjour' } }, publishedLocales: { fr: { title: 'Bonjour' } },
    });
    await t.run('pages.publish', { ref: { slug: 'a' } });
    expect((await t.run('pages.get', { ref: { slug: 'b' } })).draftContent).toEqual({ title: 'Bee' });

    // The same through the admin API's update of the type.
    await t.run('types.update', { kind: 'pageTypes', slug: 'post', definition: { fields: [title] } });
    expect(await stored('a')).toMatchObject({ draftContent: { title: 'Hello' }, publishedContent: { title: 'Hello' } });
    await t.run('pages.publish', { ref: { slug: 'a' } });

    // A version taken before the change is restored with the fields the type still has: the
    // removed ones are not brought back (they would refuse the restore as unknown fields).
    await t.run('pages.update', { ref: { slug: 'a' }, fields: { title: 'Changed' }, locale: 'fr' });
    await t.run('pages.update', { ref: { slug: 'a' }, fields: { title: 'Changed' } });
    const first = (await t.run('pages.versions', { ref: { slug: 'a' } })).at(-1);
    expect((await t.run('pages.version', { ref: { slug: 'a' }, version: first.version })).draftContent).toEqual({ title: 'Hello' });
    await t.run('pages.restore', { ref: { slug: 'a' }, version: first.version });
    expect(await stored('a')).toMatchObject({ draftContent: { title: 'Hello' }, draftLocales: {} });
  });

  it('go with it from every instance of a component, wherever it is nested', async () => {
    const box = { slug: 'box', name: 'Box', fields: [{ name: 'a', type: 'text' }, { name: 'b', type: 'text' }] };
    const shelf = { slug: 'shelf', name: 'Shelf', fields: [{ name: 'hero', type: 'nestedComponent', options: { componentSlug: 'box' } }, { name: 'more', type: 'componentPicker', options: { allowedComponents: ['box'] } }] };
    const documents = (component: typeof box) => ({ pageTypes: [{ definition: shelf }], collections: [], components: [{ definition: component }] });
    // The set replaces the first test's (its post type and pages go).
    await t.run('schema.push', { ...documents(box), force: true });
    await t.run('pages.create', {
      pageTypeSlug: 'shelf', name: 'S', slug: 'shelf-1', status: 'published',
      fields: { hero: { _type: 'box', a: 'x', b: 'y' }, more: [{ _type: 'box', a: 'p', b: 'q' }, { _type: 'box', a: 'r' }] },
    });
    // The plan counts the entries holding a value of the component's field, and calls it destructive.
    const plan = await t.run('schema.diff', documents({ ...box, fields: [box.fields[0]!] }));
    expect(plan.update[0].fields.removed).toEqual([{ field: 'b', entriesWithValues: 1 }]);
    expect(plan.destructive).toBe(true);
    expect((await t.run('schema.diff', documents({ ...box, fields: [box.fields[1]!, { name: 'c', type: 'text' }] }))).update[0].fields.removed)
      .toEqual([{ field: 'a', entriesWithValues: 1 }]);
    await t.run('schema.push', documents({ ...box, fields: [box.fields[0]!] }));
    const content = { hero: { _type: 'box', a: 'x' }, more: [{ _type: 'box', a: 'p' }, { _type: 'box', a: 'r' }] };
    expect(await stored('shelf-1')).toMatchObject({ draftContent: content, publishedContent: content });
    await t.run('pages.publish', { ref: { slug: 'shelf-1' } });
  });
});
