import { describe, expect, it } from 'vitest';
import { expectedCounts, referencedMediaIds } from '../../fakes/buttercms/account.js';
import { collectMediaUrls, convertFields, type ConvertContext } from '../../../src/importers/buttercms/convert.js';
import { inferSchema, inferSchemas, type FieldPlan } from '../../../src/importers/buttercms/infer.js';
import type { ReferenceKind } from '../../../src/importers/buttercms/types.js';
import { MEDIA_HOST, collectionOfSpecItem, renderAccount, springLaunchFields, summerSaleFields } from './samples.js';

// Deterministic stand-ins for the ids the importer would have created.
const mediaId = (url: string) => `media:${url.split('/').at(-1)}`;
const localId = (kind: ReferenceKind, key: string) => `${kind}:${key}`;

function context(components: ConvertContext['components'], overrides: Partial<ConvertContext> = {}): ConvertContext {
  return {
    mediaIdForUrl: mediaId,
    localIdFor: (kind, key) => localId(kind, key),
    components,
    where: 'page landing-page/x',
    ...overrides,
  };
}

describe('convertFields on the ButterCMS documentation\'s collection sample', () => {
  const schema = inferSchema([springLaunchFields, summerSaleFields], { id: 'landing-page', collectionOfItemId: collectionOfSpecItem });

  it('converts every value into the stored shape', () => {
    const { value, warnings } = convertFields(springLaunchFields, schema.plan, context(schema.components));
    expect(warnings).toEqual([]);
    expect(value).toEqual({
      seo: { _type: 'seo', title: 'Spring Launch | Acme', description: 'Everything new this spring.' },
      headline: 'Meet the new Acme Rocket',
      intro: '<p>Faster than <strong>ever</strong>.</p>',
      hero_image: { _media: 'media:Qm3xT8aLkR2pVbN9wZyE' },
      launch_date: '2024-04-15T00:00:00',
      price: 199.99,
      is_featured: true,
      theme: 'dark',
      author: { _ref: 'collectionItem:812001', _type: 'collectionItem' },
      related_products: [
        { _ref: 'collectionItem:812044', _type: 'collectionItem' },
        { _ref: 'collectionItem:812045', _type: 'collectionItem' },
      ],
      faq: [
        { question: 'Does it ship worldwide?', answer: 'Yes.' },
        { question: 'Warranty?', answer: 'One year.' },
      ],
      body: [
        { _type: 'hero', headline: 'Launch day', image: { _media: 'media:Z2vYk9WmP4tRs1LqA0cD' }, button_label: 'Buy now', button_url: '/buy' },
        {
          _type: 'two-column-with-image',
          headline: 'Built tough',
          subheadline: '<p>Steel frame.</p>',
          image: { _media: 'media:bN5cX7eR1tYu3IoP9aSd' },
          image_position: 'right',
        },
      ],
    });
    // `_type` leads each component instance, as delivered.
    expect(Object.keys((value.body as Array<Record<string, unknown>>)[1]!)[0]).toBe('_type');
  });

  it('converts a reference delivered as a URI string, and keeps empty strings and lists', () => {
    const { value, warnings } = convertFields(summerSaleFields, schema.plan, context(schema.components));
    expect(warnings).toEqual([]);
    expect(value.author).toEqual({ _ref: 'collectionItem:812001', _type: 'collectionItem' });
    expect(value.intro).toBe('');
    expect(value.seo).toEqual({ _type: 'seo', title: 'Summer Sale', description: '' });
    expect(value.related_products).toEqual([]);
    expect(value.faq).toEqual([]);
    expect(value.body).toEqual([]);
  });

  it('passes the source key and a hint to localIdFor', () => {
    const calls: Array<[string, string, unknown]> = [];
    convertFields(
      springLaunchFields,
      schema.plan,
      context(schema.components, {
        localIdFor: (kind, key, hint) => {
          calls.push([kind, key, hint]);
          return 'id';
        },
      }),
    );
    expect(calls).toEqual([
      ['collectionItem', '812001', { collection: 'people' }],
      ['collectionItem', '812044', { collection: 'products' }],
      ['collectionItem', '812045', { collection: 'products' }],
    ]);
  });

  it('drops media and references it cannot map, with a warning each', () => {
    const { value, warnings } = convertFields(
      springLaunchFields,
      schema.plan,
      context(schema.components, {
        mediaIdForUrl: (url) => (url.endsWith('Qm3xT8aLkR2pVbN9wZyE') ? null : mediaId(url)),
        localIdFor: (kind, key) => (key === '812044' ? null : localId(kind, key)),
      }),
    );
    expect(value.hero_image).toBeUndefined();
    expect('hero_image' in value).toBe(false);
    expect(value.related_products).toEqual([{ _ref: 'collectionItem:812045', _type: 'collectionItem' }]);
    expect(warnings).toEqual([
      { level: 'warning', message: expect.stringMatching(/^page landing-page\/x\.hero_image: media .*Qm3xT8aLkR2pVbN9wZyE was not imported; value dropped$/) },
      { level: 'warning', message: 'page landing-page/x.related_products[0]: collectionItem 812044 is unknown here; value dropped' },
    ]);
  });
});

describe('convertFields rules', () => {
  it('applies renamed keys at every level', () => {
    const sample = { 'hero-image': 'https://cdn.buttercms.com/a', rows: [{ 'row title': 'x' }], box: { '2col': true } };
    const schema = inferSchema([sample]);
    const { value } = convertFields(sample, schema.plan, context(schema.components));
    expect(value).toEqual({ hero_image: { _media: 'media:a' }, rows: [{ row_title: 'x' }], box: { _type: 'box', f_2col: true } });
  });

  it('omits null and missing values, and empty strings in non-text fields', () => {
    const schema = inferSchema([{ t: 'x', d: '2024-01-01T00:00:00', n: 1, b: true, img: 'https://cdn.buttercms.com/a', ref: '/v2/content/?keys=people[_id=1]' }]);
    const { value, warnings } = convertFields({ t: null, d: '', n: '', b: '', img: '', ref: '' }, schema.plan, context(schema.components));
    expect(value).toEqual({});
    expect(warnings).toEqual([]);
  });

  it('keeps dates as strings and stringifies numbers in text fields', () => {
    const schema = inferSchema([{ when: '2024-04-15T00:00:00', code: 'A1' }, { code: 7 }]);
    const { value } = convertFields({ when: '2024-04-15T00:00:00', code: 7 }, schema.plan, context(schema.components));
    expect(value).toEqual({ when: '2024-04-15T00:00:00', code: '7' });
  });

  it('accepts { url, alt } media (alt_media_text=1)', () => {
    const schema = inferSchema([{ photo: { url: 'https://cdn.buttercms.com/abc', alt: 'x' } }]);
    expect(convertFields({ photo: { url: 'https://cdn.buttercms.com/abc', alt: 'x' } }, schema.plan, context(schema.components)).value).toEqual({
      photo: { _media: 'media:abc' },
    });
  });

  it('wraps a single value of a one-to-many reference and keeps only the first of a list in a single one', () => {
    const many = inferSchema([{ r: ['/v2/content/?keys=people[_id=1]'] }]);
    expect(convertFields({ r: '/v2/content/?keys=people[_id=2]' }, many.plan, context([])).value).toEqual({
      r: [{ _ref: 'collectionItem:2', _type: 'collectionItem' }],
    });
    const single: FieldPlan[] = [
      { name: 'r', sourceKey: 'r', label: 'R', type: 'reference', referenceType: 'collectionItem', multiple: false, collectionType: 'people', sourceCollection: 'people' },
    ];
    const out = convertFields({ r: ['/v2/content/?keys=people[_id=1]', '/v2/content/?keys=people[_id=2]'] }, single, context([]));
    expect(out.value).toEqual({ r: { _ref: 'collectionItem:1', _type: 'collectionItem' } });
    expect(out.warnings[0]!.message).toContain('kept the first');
  });

  it('converts page references, embedded or as URI strings', () => {
    const event = { slug: 'acme-expo-2024', name: 'Acme Expo', published: '', updated: '', page_type: 'event-page', fields: {} };
    const schema = inferSchema([{ ev: event }, { ev: '/v2/pages/event-page/rocket-meetup/' }]);
    const ctx = context([]);
    expect(convertFields({ ev: event }, schema.plan, ctx).value).toEqual({ ev: { _ref: 'page:acme-expo-2024', _type: 'page' } });
    expect(convertFields({ ev: '/v2/pages/event-page/rocket-meetup/' }, schema.plan, ctx).value).toEqual({
      ev: { _ref: 'page:rocket-meetup', _type: 'page' },
    });
    const wrongKind = convertFields({ ev: '/v2/content/?keys=people[_id=1]' }, schema.plan, ctx);
    expect(wrongKind.value).toEqual({});
    expect(wrongKind.warnings[0]!.message).toContain('expected a page reference');
  });

  it('drops picker instances of unknown types and values of the wrong shape, with warnings', () => {
    const schema = inferSchema([{ body: [{ type: 'hero', fields: { headline: 'x' } }], faq: [{ q: 'a' }], n: 1 }]);
    const { value, warnings } = convertFields(
      { body: [{ type: 'banner', fields: {} }, { type: 'hero', fields: { headline: 'y' } }, 'junk'], faq: 'not rows', n: 'one', extra: 'x' },
      schema.plan,
      context(schema.components),
    );
    expect(value).toEqual({ body: [{ _type: 'hero', headline: 'y' }] });
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('body[0]: component type "banner" was not seen during inference'),
      expect.stringContaining('body[2]: expected { type, fields }'),
      expect.stringContaining('faq: expected a list of rows'),
      expect.stringContaining('n: expected a number'),
      expect.stringContaining('extra: not in the inferred schema'),
    ]);
  });

  it('keeps json values as they are, copied', () => {
    const schema = inferSchema([{ tags: ['a', 'b'] }]);
    const source = { tags: ['a', 'b'] };
    const { value } = convertFields(source, schema.plan, context([]));
    expect(value).toEqual({ tags: ['a', 'b'] });
    expect(value.tags).not.toBe(source.tags);
  });

  it('accepts components as a Map', () => {
    const schema = inferSchema([{ seo: { title: 'x' } }]);
    const map = new Map(schema.components.map((c) => [c.slug, c]));
    expect(convertFields({ seo: { title: 'y' } }, schema.plan, context(map)).value).toEqual({ seo: { _type: 'seo', title: 'y' } });
  });
});

describe('collectMediaUrls', () => {
  it('finds media URLs in fields and inside HTML, once each', () => {
    const urls = collectMediaUrls({
      a: 'https://cdn.buttercms.com/one',
      b: ['<p><img src="https://cdn.buttercms.com/two" alt=""><a href=\'https://cdn.buttercms.com/three\'>x</a></p>', 'https://cdn.buttercms.com/one'],
      c: { d: '<img srcset="https://cdn.buttercms.com/four 1x, https://cdn.buttercms.com/five 2x" src="/local.png">' },
      e: 'https://example.com/page',
    });
    expect(urls).toEqual([
      'https://cdn.buttercms.com/one',
      'https://cdn.buttercms.com/two',
      'https://cdn.buttercms.com/three',
      'https://cdn.buttercms.com/four',
      'https://cdn.buttercms.com/five',
    ]);
  });
});

describe('converting the whole fake account', () => {
  const rendered = renderAccount();
  const options = { mediaHosts: [MEDIA_HOST], collectionOfItemId: collectionOfSpecItem };
  const result = inferSchemas(rendered.groups, options);
  const media = new Map(rendered.account.media.map((m) => [`${rendered.account.mediaBaseUrl}/${m.id}`, `local-${m.sha256.slice(0, 12)}`]));
  const ctx = (where: string): ConvertContext => ({
    mediaIdForUrl: (url) => media.get(url),
    localIdFor: (kind, key) =>
      kind === 'page' ? (rendered.pages.has(key) ? `page-${key}` : null) : rendered.items.has(Number(key)) ? `item-${key}` : null,
    components: result.components,
    where,
  });

  it('converts every page and item without a warning', () => {
    let converted = 0;
    for (const [slug, page] of rendered.pages) {
      const schemaId = page.page_type ?? slug;
      const out = convertFields(page.fields, result.schemas[schemaId]!.plan, ctx(`page ${slug}`));
      expect(out.warnings, slug).toEqual([]);
      converted += 1;
    }
    for (const [id, { collection, item }] of rendered.items) {
      const { meta: _meta, ...fields } = item;
      const out = convertFields(fields, result.schemas[collection]!.plan, ctx(`item ${id}`));
      expect(out.warnings, String(id)).toEqual([]);
      converted += 1;
    }
    expect(converted).toBe(expectedCounts.pages + expectedCounts.collectionItems);
  });

  it('converts references past the depth limit too (levels=1)', () => {
    const shallow = renderAccount(1);
    const page = shallow.pages.get('spring-launch')!;
    const out = convertFields(page.fields, result.schemas['landing-page']!.plan, ctx('page spring-launch'));
    expect(out.warnings).toEqual([]);
    expect(out.value.author).toEqual({ _ref: 'item-812001', _type: 'collectionItem' });
    expect(out.value.featured_event).toEqual({ _ref: 'page-acme-expo-2024', _type: 'page' });
  });

  it('maps the duplicated image to the same local media id', () => {
    const home = convertFields(rendered.pages.get('home')!.fields, result.schemas.home!.plan, ctx('page home'));
    const spring = convertFields(rendered.pages.get('spring-launch')!.fields, result.schemas['landing-page']!.plan, ctx('page spring-launch'));
    expect((home.value.hero_banner as { image: unknown }).image).toEqual(spring.value.hero_image);
  });

  it('finds every media URL of the account, HTML included', () => {
    const all = new Set<string>();
    for (const page of rendered.pages.values()) collectMediaUrls(page.fields, [MEDIA_HOST]).forEach((u) => all.add(u));
    for (const { item } of rendered.items.values()) collectMediaUrls(item, [MEDIA_HOST]).forEach((u) => all.add(u));
    for (const post of rendered.account.posts) collectMediaUrls([post.body, post.featured_image], [MEDIA_HOST]).forEach((u) => all.add(u));
    for (const author of rendered.account.authors) collectMediaUrls(author.profile_image, [MEDIA_HOST]).forEach((u) => all.add(u));
    expect(all.size).toBe(expectedCounts.media.urls);
    expect([...all].map((u) => u.split('/').at(-1)).sort()).toEqual(referencedMediaIds(rendered.account).all);
  });
});
