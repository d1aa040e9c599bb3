import { describe, expect, it } from 'vitest';
import { expectedCounts } from '../../fakes/buttercms/account.js';
import {
  inferSchema,
  inferSchemas,
  isDateString,
  isHtml,
  isMediaUrl,
  referenceTargetOf,
  type FieldPlan,
  type InferOptions,
} from '../../../src/importers/buttercms/infer.js';
import type { SchemaField } from '../../../src/importers/buttercms/types.js';
import {
  MEDIA_HOST,
  collectionOfSpecItem,
  renderAccount,
  springLaunchFields,
  summerSaleFields,
} from './samples.js';

const specOptions: InferOptions = { collectionOfItemId: collectionOfSpecItem };

function byName(fields: readonly SchemaField[], name: string): SchemaField {
  const field = fields.find((f) => f.name === name);
  if (!field) throw new Error(`no field ${name} in ${fields.map((f) => f.name).join(', ')}`);
  return field;
}

/** Infers one field from its sample values. */
function inferOne(values: unknown[], options: InferOptions = {}) {
  const result = inferSchema(
    values.map((v) => ({ value: v })),
    { id: 'page', ...options },
  );
  return { field: byName(result.fields, 'value'), plan: result.plan[0]!, warnings: result.warnings, components: result.components };
}

describe('value detection', () => {
  it('recognises HTML', () => {
    for (const s of ['<p>Steel frame.</p>', '<div>x</div>', 'Use <strong>bold</strong> text', 'Line<br>break', '<h2>Title</h2>']) {
      expect(isHtml(s)).toBe(true);
    }
    for (const s of ['a < b and c > d', 'Up to 40% off', '<not closed', 'x <= y', 'email <me@acme.test>']) {
      expect(isHtml(s)).toBe(false);
    }
  });

  it('recognises date-like strings', () => {
    for (const s of ['2024-04-15T00:00:00', '2024-03-15', '2024-03-15T14:30:00', '2024-05-17T14:14:41.484894Z', '2024-04-15T10:00:00+02:00', '2024-04-15T10:00']) {
      expect(isDateString(s)).toBe(true);
    }
    for (const s of ['2024-13-01', '2024-04-32', '15/04/2024', '2024', '2024-04-15 extra', 'RS-1', '2024-04-15T25:00:00']) {
      expect(isDateString(s)).toBe(false);
    }
  });

  it('recognises media URLs by host or by file-like path', () => {
    expect(isMediaUrl('https://cdn.buttercms.com/Qm3xT8aLkR2pVbN9wZyE')).toBe(true);
    expect(isMediaUrl('https://cdn.buttercms.com/resize=width:800/Qm3xT8aLkR2pVbN9wZyE')).toBe(true);
    expect(isMediaUrl('https://d2wzhk7xhrnk1x.cloudfront.net/abc_photo.jpg')).toBe(true);
    expect(isMediaUrl('https://d2devwt40at1e2.cloudfront.net/api/file/abc')).toBe(true);
    expect(isMediaUrl('https://example.com/brochure.PDF')).toBe(true);
    expect(isMediaUrl('https://example.com/about')).toBe(false);
    expect(isMediaUrl('/buy')).toBe(false);
    expect(isMediaUrl('ftp://cdn.buttercms.com/x')).toBe(false);
  });

  it('takes extra media hosts as host, host:port or URL', () => {
    const url = 'http://127.0.0.1:4010/media/Qm3xT8aLkR2pVbN9wZyE';
    expect(isMediaUrl(url)).toBe(false);
    expect(isMediaUrl(url, ['127.0.0.1:4010'])).toBe(true);
    expect(isMediaUrl(url, ['http://127.0.0.1:4010/media'])).toBe(true);
    expect(isMediaUrl(url, ['127.0.0.1'])).toBe(true);
    expect(isMediaUrl(url, ['127.0.0.1:9999'])).toBe(false);
  });

  it('reads references in every delivered form', () => {
    expect(referenceTargetOf('/v2/content/?keys=people[_id=812001]')).toEqual({ kind: 'collectionItem', sourceKey: '812001', collection: 'people' });
    expect(referenceTargetOf('https://api.buttercms.com/v2/content/?keys=authors[_id=123]&locale=en')).toEqual({
      kind: 'collectionItem',
      sourceKey: '123',
      collection: 'authors',
    });
    expect(referenceTargetOf({ meta: { id: 812044 }, name: 'Rocket Skates' })).toEqual({ kind: 'collectionItem', sourceKey: '812044' });
    expect(referenceTargetOf({ slug: 'x', name: 'X', page_type: null, fields: {} })).toEqual({ kind: 'page', sourceKey: 'x', pageType: null });
    expect(referenceTargetOf('/v2/pages/event-page/rocket-meetup/')).toEqual({ kind: 'page', sourceKey: 'rocket-meetup', pageType: 'event-page' });
    expect(referenceTargetOf('/v2/pages/*/home/')).toEqual({ kind: 'page', sourceKey: 'home', pageType: undefined });
    expect(referenceTargetOf('/buy')).toBeNull();
    expect(referenceTargetOf({ title: 'x' })).toBeNull();
  });
});

describe('inferSchema on the ButterCMS documentation\'s collection sample', () => {
  const result = inferSchema([springLaunchFields, summerSaleFields], { id: 'landing-page', ...specOptions });

  it('infers every field of the landing page', () => {
    const types = Object.fromEntries(result.fields.map((f) => [f.name, f.type]));
    expect(types).toEqual({
      seo: 'nestedComponent',
      headline: 'text',
      intro: 'wysiwyg',
      hero_image: 'image',
      launch_date: 'date',
      price: 'number',
      is_featured: 'boolean',
      theme: 'text',
      author: 'reference',
      related_products: 'reference',
      faq: 'repeater',
      body: 'componentPicker',
    });
    expect(result.warnings).toEqual([]);
  });

  it('produces SchemaFields with humanised labels, required false and type options', () => {
    expect(byName(result.fields, 'hero_image')).toEqual({ name: 'hero_image', label: 'Hero image', type: 'image', required: false });
    expect(byName(result.fields, 'seo').options).toEqual({ componentSlug: 'seo' });
    expect(byName(result.fields, 'author').options).toEqual({ referenceType: 'collectionItem', multiple: false, collectionType: 'people' });
    expect(byName(result.fields, 'related_products').options).toEqual({
      referenceType: 'collectionItem',
      multiple: true,
      collectionType: 'products',
    });
    expect(byName(result.fields, 'faq').options).toEqual({
      fields: [
        { name: 'question', label: 'Question', type: 'text', required: false },
        { name: 'answer', label: 'Answer', type: 'text', required: false },
      ],
    });
    expect(byName(result.fields, 'body').options).toEqual({ allowedComponents: ['hero', 'two-column-with-image'] });
  });

  it('creates the components, kebab-cased, with fields inferred from their instances', () => {
    expect(result.components.map((c) => c.slug)).toEqual(['seo', 'hero', 'two-column-with-image']);
    const two = result.components.find((c) => c.slug === 'two-column-with-image')!;
    expect(two.name).toBe('Two column with image');
    expect(two.sourceNames).toEqual(['two_column_with_image']);
    expect(Object.fromEntries(two.fields.map((f) => [f.name, f.type]))).toEqual({
      headline: 'text',
      subheadline: 'wysiwyg',
      image: 'image',
      image_position: 'text',
    });
    const seo = result.components.find((c) => c.slug === 'seo')!;
    expect(seo.fields.map((f) => [f.name, f.type])).toEqual([
      ['title', 'text'],
      ['description', 'text'],
    ]);
  });

  it('keeps the mapping from field names to source keys', () => {
    expect(result.mapping.hero_image).toBe('hero_image');
    const picker = result.plan.find((p) => p.name === 'body')!;
    expect(picker).toMatchObject({ type: 'componentPicker', componentSlugs: { hero: 'hero', two_column_with_image: 'two-column-with-image' } });
  });

  it('treats a reference past the depth limit (URI string) like the embedded object', () => {
    const onlyUri = inferSchema([summerSaleFields], { id: 'landing-page' });
    expect(byName(onlyUri.fields, 'author')).toMatchObject({
      type: 'reference',
      options: { referenceType: 'collectionItem', multiple: false, collectionType: 'people' },
    });
  });
});

describe('type rules', () => {
  it('maps scalars: text, textarea, wysiwyg, date, image, number, boolean', () => {
    expect(inferOne(['Up to 40% off']).field.type).toBe('text');
    expect(inferOne(['line one\nline two']).field.type).toBe('textarea');
    expect(inferOne(['x'.repeat(256)]).field.type).toBe('textarea');
    expect(inferOne(['x'.repeat(255)]).field.type).toBe('text');
    expect(inferOne(['<p>Faster than <strong>ever</strong>.</p>']).field.type).toBe('wysiwyg');
    expect(inferOne(['2024-04-15T00:00:00', '2024-06-01T08:00:00']).field.type).toBe('date');
    expect(inferOne(['https://cdn.buttercms.com/Qm3xT8aLkR2pVbN9wZyE']).field.type).toBe('image');
    expect(inferOne(['http://127.0.0.1:4010/media/x'], { mediaHosts: [MEDIA_HOST] }).field.type).toBe('image');
    expect(inferOne([{ url: 'https://cdn.buttercms.com/abc', alt: 'An anvil' }]).field.type).toBe('image');
    expect(inferOne([199.99, 0]).field.type).toBe('number');
    expect(inferOne([true, false]).field.type).toBe('boolean');
  });

  it('makes every field of files an image field, PDFs included (the contract: media and file uploads become image)', () => {
    const pdf = 'https://cdn.buttercms.com/Pq1wE2rT3yU4iO5pA6sD';
    const png = 'https://cdn.buttercms.com/Qm3xT8aLkR2pVbN9wZyE';
    expect(inferOne([pdf]).field.type).toBe('image');
    expect(inferOne([png, '', pdf])).toMatchObject({ field: { type: 'image' }, warnings: [] });
    expect(inferOne([{ url: pdf, alt: 'Spec' }]).field.type).toBe('image');
    expect(inferOne(['https://d2wzhk7xhrnk1x.cloudfront.net/abc_manual.pdf']).field.type).toBe('image');
    const repeated = inferOne([[{ file: png }, { file: pdf }]]);
    expect(repeated.field).toMatchObject({ type: 'repeater', options: { fields: [{ name: 'file', type: 'image' }] } });
  });

  it('lets null, "" and [] decide nothing', () => {
    const r = inferOne([null, '', '<p>x</p>', undefined]);
    expect(r.field.type).toBe('wysiwyg');
    expect(r.warnings).toEqual([]);
    expect(inferOne([[], [{ question: 'Q', answer: 'A' }]]).field.type).toBe('repeater');
    expect(inferOne(['', 5]).field.type).toBe('number');
  });

  it('falls back with a warning when every sample is empty', () => {
    const strings = inferOne([null, '']);
    expect(strings.field.type).toBe('text');
    expect(strings.warnings).toEqual([{ level: 'warning', message: expect.stringContaining('page.value') }]);
    expect(inferOne([[], []]).field.type).toBe('json');
  });

  it('widens conflicting strings to the most general type, with a warning naming the field and types', () => {
    const cases: Array<[unknown[], string, string[]]> = [
      [['short', 'multi\nline'], 'textarea', ['text', 'textarea']],
      [['plain', '<p>rich</p>'], 'wysiwyg', ['text', 'wysiwyg']],
      [['a\nb', '<p>rich</p>'], 'wysiwyg', ['textarea', 'wysiwyg']],
      [['2024-04-15T00:00:00', 'soon'], 'text', ['date', 'text']],
      [['https://cdn.buttercms.com/abc', 'n/a'], 'text', ['image', 'text']],
      [[5, 'five'], 'text', ['number', 'text']],
      [[5, '<p>five</p>'], 'wysiwyg', ['number', 'wysiwyg']],
    ];
    for (const [values, type, seen] of cases) {
      const r = inferOne(values);
      expect(r.field.type, JSON.stringify(values)).toBe(type);
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings[0]!.level).toBe('warning');
      expect(r.warnings[0]!.message).toContain('page.value');
      for (const t of seen) expect(r.warnings[0]!.message).toContain(t);
    }
  });

  it('resolves other incompatible samples to json with a warning', () => {
    for (const values of [
      [true, 'yes'],
      [1, true],
      [{ a: 1 }, 'text'],
      [[{ type: 'hero', fields: {} }], [{ question: 'q' }]],
      ['/v2/content/?keys=people[_id=1]', 'plain text'],
    ]) {
      const r = inferOne(values, specOptions);
      expect(r.field.type, JSON.stringify(values)).toBe('json');
      expect(r.warnings.some((w) => w.level === 'warning' && w.message.includes('page.value'))).toBe(true);
    }
  });

  it('maps arrays of scalars to json without complaint', () => {
    const r = inferOne([['red', 'green'], [1, 2]]);
    expect(r.field.type).toBe('json');
    expect(r.warnings).toEqual([]);
  });

  it('never infers select, radio, checkbox, datetime or file', () => {
    const { groups } = renderAccount();
    const result = inferSchemas(groups, { mediaHosts: [MEDIA_HOST], collectionOfItemId: collectionOfSpecItem });
    const types = new Set<string>();
    const collect = (fields: SchemaField[]): void => {
      for (const f of fields) {
        types.add(f.type);
        if (f.type === 'repeater') collect(f.options!.fields as SchemaField[]);
      }
    };
    Object.values(result.schemas).forEach((s) => collect(s.fields));
    result.components.forEach((c) => collect(c.fields));
    for (const t of ['select', 'radio', 'checkbox', 'datetime', 'file']) expect(types.has(t)).toBe(false);
    expect(types.has('date')).toBe(true);
  });
});

describe('references', () => {
  it('finds the collection of an embedded item through collectionOfItemId', () => {
    const r = inferOne([{ meta: { id: 812044 }, name: 'Rocket Skates' }], specOptions);
    expect(r.field.options).toEqual({ referenceType: 'collectionItem', multiple: false, collectionType: 'products' });
    expect(r.plan).toMatchObject({ sourceCollection: 'products' });
  });

  it('maps the collection key to our slug', () => {
    const r = inferOne(['/v2/content/?keys=navigation_menu_item[_id=813001]']);
    expect(r.field.options).toMatchObject({ collectionType: 'navigation-menu-item' });
    const custom = inferOne(['/v2/content/?keys=navigation_menu_item[_id=813001]'], { collectionSlugFor: (k) => `src-${k}` });
    expect(custom.field.options).toMatchObject({ collectionType: 'src-navigation_menu_item' });
  });

  it('makes a one-to-many reference from arrays of items or URI strings, and from mixed single/array samples', () => {
    expect(inferOne([['/v2/content/?keys=people[_id=1]', '/v2/content/?keys=people[_id=2]']]).field.options).toMatchObject({
      multiple: true,
      collectionType: 'people',
    });
    const mixed = inferOne([[{ meta: { id: 812001 } }], '/v2/content/?keys=people[_id=812002]', []], specOptions);
    expect(mixed.field.options).toMatchObject({ multiple: true, collectionType: 'people' });
    expect(mixed.warnings).toEqual([]);
  });

  it('degrades to json when the collection cannot be told, or is not one collection', () => {
    const unknown = inferOne([{ meta: { id: 5 } }]);
    expect(unknown.field.type).toBe('json');
    expect(unknown.warnings[0]!.message).toMatch(/page\.value.*could not be identified/);
    const several = inferOne([{ meta: { id: 812001 } }, { meta: { id: 812044 } }], specOptions);
    expect(several.field.type).toBe('json');
    expect(several.warnings[0]!.message).toContain('people, products');
  });

  it('makes page references with pageType when every sample agrees', () => {
    const event = { slug: 'acme-expo-2024', name: 'Acme Expo', published: '', updated: '', page_type: 'event-page', fields: { title: 'x' } };
    const one = inferOne([event, '/v2/pages/event-page/rocket-meetup/', null]);
    expect(one.field).toMatchObject({ type: 'reference', options: { referenceType: 'page', multiple: false, pageType: 'event-page' } });
    const many = inferOne([[event, { ...event, slug: 'other', page_type: 'landing-page' }]]);
    expect(many.field.options).toEqual({ referenceType: 'page', multiple: true });
    const single = inferOne([{ ...event, page_type: null }]);
    expect(single.field.options).toEqual({ referenceType: 'page', multiple: false });
  });

  it('refuses to mix page and collection references', () => {
    const event = { slug: 'x', page_type: 'event-page', fields: {} };
    const r = inferOne([event, { meta: { id: 812001 } }], specOptions);
    expect(r.field.type).toBe('json');
    expect(r.warnings[0]!.message).toContain('reference(page)');
  });
});

describe('components and repeaters', () => {
  it('turns a single embedded object into a nestedComponent named after the key', () => {
    const r = inferSchema([{ hero_banner: { headline: 'A', image: 'https://cdn.buttercms.com/abc' } }]);
    expect(byName(r.fields, 'hero_banner').options).toEqual({ componentSlug: 'hero-banner' });
    expect(r.components).toHaveLength(1);
    expect(r.components[0]).toMatchObject({ slug: 'hero-banner', name: 'Hero banner', sourceNames: ['hero_banner'] });
    expect(r.components[0]!.fields.map((f) => f.type)).toEqual(['text', 'image']);
  });

  it('infers picker component fields across all instances, one component per distinct type', () => {
    const r = inferSchema([
      { body: [{ type: 'hero', fields: { headline: 'A' } }, { type: 'hero', fields: { headline: 'B', image: 'https://cdn.buttercms.com/x' } }] },
      { body: [{ type: 'call_to_action', fields: { label: 'Go', url: '/go' } }] },
    ]);
    expect(byName(r.fields, 'body').options).toEqual({ allowedComponents: ['hero', 'call-to-action'] });
    const hero = r.components.find((c) => c.slug === 'hero')!;
    expect(hero.fields.map((f) => [f.name, f.type])).toEqual([
      ['headline', 'text'],
      ['image', 'image'],
    ]);
  });

  it('shares components across schemas: seo on two page types, hero as picker type and as object', () => {
    const r = inferSchemas([
      { id: 'a', samples: [{ seo: { title: 'T' }, body: [{ type: 'hero', fields: { headline: 'H' } }] }] },
      { id: 'b', samples: [{ seo: { title: 'T2', description: 'D\nmore' }, hero: { headline: 'H2', image: 'https://cdn.buttercms.com/y' } }] },
    ]);
    expect(r.components.map((c) => c.slug)).toEqual(['seo', 'hero']);
    expect(r.components[0]!.fields.map((f) => [f.name, f.type])).toEqual([
      ['title', 'text'],
      ['description', 'textarea'],
    ]);
    expect(r.components[1]!.sourceNames).toEqual(['hero']);
    expect(r.components[1]!.fields.map((f) => f.name)).toEqual(['headline', 'image']);
  });

  it('infers repeater sub-fields recursively, references allowed', () => {
    const r = inferOne(
      [[{ time: '18:30', topic: 'Welcome', speaker: { meta: { id: 812001 } } }], [{ time: '19:00', topic: '<p>Deep</p>', speaker: null }]],
      specOptions,
    );
    expect(r.field.type).toBe('repeater');
    const sub = r.field.options!.fields as SchemaField[];
    expect(sub.map((f) => [f.name, f.type])).toEqual([
      ['time', 'text'],
      ['topic', 'wysiwyg'],
      ['speaker', 'reference'],
    ]);
    expect(r.warnings.map((w) => w.message)).toEqual([expect.stringContaining('page.value[].topic')]);
  });

  it('degrades component-ish repeater sub-fields to json with a warning', () => {
    const r = inferOne([
      [
        {
          title: 'Row',
          box: { a: 1 },
          sections: [{ type: 'hero', fields: { headline: 'x' } }],
          rows: [{ cell: 'c' }],
        },
      ],
    ]);
    const sub = r.field.options!.fields as SchemaField[];
    expect(sub.map((f) => [f.name, f.type])).toEqual([
      ['title', 'text'],
      ['box', 'json'],
      ['sections', 'json'],
      ['rows', 'json'],
    ]);
    expect(r.warnings).toHaveLength(3);
    expect(r.warnings.every((w) => w.level === 'warning' && w.message.includes('repeater'))).toBe(true);
    expect(r.components).toEqual([]);
  });

  it('keeps components one level deep: a component inside a component becomes json', () => {
    const r = inferSchema([{ hero: { headline: 'x', cta: { label: 'Go' }, bullets: [{ text: 'a' }] } }]);
    const hero = r.components.find((c) => c.slug === 'hero')!;
    expect(hero.fields.map((f) => [f.name, f.type])).toEqual([
      ['headline', 'text'],
      ['cta', 'json'],
      ['bullets', 'repeater'],
    ]);
    expect(r.components.map((c) => c.slug)).toEqual(['hero']);
    expect(r.warnings.map((w) => w.message)).toEqual([expect.stringContaining('component hero.cta')]);
  });

  it('renames invalid keys, keeps colliding ones apart, and records the mapping', () => {
    const r = inferSchema([{ 'hero-image': 'a', hero_image: 'b', '2col': 'c', ButtonURL: 'd' }]);
    // The key that is already a valid name keeps it; the renamed one takes the suffix.
    expect(r.fields.map((f) => f.name)).toEqual(['hero_image_2', 'hero_image', 'f_2col', 'ButtonURL']);
    expect(r.mapping).toEqual({ hero_image_2: 'hero-image', hero_image: 'hero_image', f_2col: '2col', ButtonURL: 'ButtonURL' });
    expect(r.warnings).toEqual([
      { level: 'info', message: 'schema.hero-image: renamed to "hero_image_2"' },
      { level: 'info', message: 'schema.2col: renamed to "f_2col"' },
    ]);
  });

  it('drops the meta of collection items', () => {
    const r = inferSchema([{ meta: { id: 1 }, name: 'x' }], { kind: 'collection' });
    expect(r.fields.map((f) => f.name)).toEqual(['name']);
  });
});

describe('inference over the fake account', () => {
  const { groups } = renderAccount();
  const result = inferSchemas(groups, { mediaHosts: [MEDIA_HOST], collectionOfItemId: collectionOfSpecItem });
  const typesOf = (id: string) => Object.fromEntries(result.schemas[id]!.fields.map((f) => [f.name, f.type]));

  it('infers a schema per page type, collection and single page', () => {
    expect(Object.keys(result.schemas).sort()).toEqual(
      ['about', 'contact', 'event-page', 'home', 'landing-page', 'navigation_menu_item', 'people', 'product-page', 'products'].sort(),
    );
    expect(typesOf('people')).toEqual({
      name: 'text',
      role: 'text',
      photo: 'image',
      joined: 'date',
      active: 'boolean',
      years: 'number',
      bio: 'wysiwyg',
      mentor: 'reference',
    });
    expect(typesOf('products')).toMatchObject({ description: 'textarea', designer: 'reference', released: 'date', price: 'number' });
    expect(typesOf('event-page')).toMatchObject({ starts_at: 'date', speakers: 'reference', agenda: 'repeater', poster: 'image' });
    expect(typesOf('contact')).toMatchObject({ address: 'textarea', show_map: 'boolean', menu: 'reference' });
  });

  it('finds references between collections and pages', () => {
    const field = (id: string, name: string) => result.schemas[id]!.fields.find((f) => f.name === name)!;
    expect(field('products', 'designer').options).toMatchObject({ collectionType: 'people', multiple: false });
    expect(field('people', 'mentor').options).toMatchObject({ collectionType: 'people' });
    expect(field('navigation_menu_item', 'featured_products').options).toMatchObject({ collectionType: 'products', multiple: true });
    expect(field('landing-page', 'featured_event').options).toEqual({ referenceType: 'page', multiple: false, pageType: 'event-page' });
    expect(field('product-page', 'related_pages').options).toEqual({ referenceType: 'page', multiple: true, pageType: 'product-page' });
  });

  it('creates exactly the expected components', () => {
    expect(result.components.map((c) => c.slug).sort()).toEqual(expectedCounts.components);
  });

  it('warns only about the one genuine text/textarea disagreement', () => {
    expect(result.warnings).toEqual([{ level: 'warning', message: 'about.values[].description: samples disagree (text, textarea); using textarea' }]);
  });

  it('gives the same schema when references arrive as URI strings (levels=1)', () => {
    const shallow = inferSchemas(renderAccount(1).groups, { mediaHosts: [MEDIA_HOST], collectionOfItemId: collectionOfSpecItem });
    const strip = (plans: FieldPlan[]) => plans.map((p) => [p.name, p.type]);
    for (const id of Object.keys(result.schemas)) {
      expect(strip(shallow.schemas[id]!.plan), id).toEqual(strip(result.schemas[id]!.plan));
    }
  });
});
