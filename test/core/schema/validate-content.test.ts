import { describe, it, expect } from 'vitest';
import {
  validateContent,
  type ContentLookups,
  type ContentTarget,
  type MediaInfo,
  type SchemaField,
  type TypeDefinition,
  type ValidateContentOptions,
} from '../../../src/core/schema/index.js';

const ID = {
  a: '11111111-1111-4111-8111-111111111111',
  b: '22222222-2222-4222-8222-222222222222',
  missing: '99999999-9999-4999-8999-999999999999',
  png: '33333333-3333-4333-8333-333333333333',
  pdf: '44444444-4444-4444-8444-444444444444',
};

interface FakeLookups extends ContentLookups {
  calls: Array<{ target: ContentTarget; ids: string[] }>;
  mediaCalls: string[][];
}

/** Lookups where every id of `existing` exists for every target, recording each call. */
function fakeLookups(options: {
  existing?: string[];
  components?: TypeDefinition[];
  media?: Record<string, MediaInfo>;
  withMedia?: boolean;
} = {}): FakeLookups {
  const existing = new Set(options.existing ?? [ID.a, ID.b, ID.png, ID.pdf]);
  const calls: FakeLookups['calls'] = [];
  const mediaCalls: string[][] = [];
  const lookups: FakeLookups = {
    calls,
    mediaCalls,
    existingIds: async (target, ids) => {
      calls.push({ target, ids });
      return new Set(ids.filter((id) => existing.has(id)));
    },
    component: (slug) => options.components?.find((component) => component.slug === slug),
  };
  if (options.withMedia !== false) {
    const info = options.media ?? {
      [ID.png]: { mimeType: 'image/png', size: 2_000 },
      [ID.pdf]: { mimeType: 'application/pdf', size: 900_000 },
    };
    lookups.media = async (ids) => {
      mediaCalls.push(ids);
      return new Map(ids.flatMap((id): Array<[string, MediaInfo]> => (info[id] ? [[id, info[id]]] : [])));
    };
  }
  return lookups;
}

const draft: ValidateContentOptions = { requireRequired: false, applyDefaults: false };

function field(definition: SchemaField): SchemaField {
  return definition;
}

/** Validates `{ [field.name]: value }` and returns the issues. */
async function issuesFor(definition: SchemaField, value: unknown, lookups = fakeLookups()) {
  const result = await validateContent([definition], { [definition.name]: value }, lookups, draft);
  return result.issues;
}

async function expectAccepted(definition: SchemaField, value: unknown, lookups = fakeLookups()): Promise<void> {
  const result = await validateContent([definition], { [definition.name]: value }, lookups, draft);
  expect(result.issues).toEqual([]);
  expect(result.value[definition.name]).toEqual(value);
}

const components: TypeDefinition[] = [
  {
    slug: 'hero',
    name: 'Hero',
    fields: [
      { name: 'title', type: 'text', required: true, options: { maxLength: 20 } },
      { name: 'image', type: 'image' },
      { name: 'tone', type: 'select', defaultValue: 'light', options: { choices: [{ label: 'Light', value: 'light' }, { label: 'Dark', value: 'dark' }] } },
    ],
  },
  { slug: 'quote', name: 'Quote', fields: [{ name: 'text', type: 'textarea' }, { name: 'product', type: 'reference', options: { collectionType: 'products' } }] },
  { slug: 'card-grid', name: 'Card grid', fields: [{ name: 'cards', type: 'componentPicker', options: { allowedComponents: ['hero', 'card-grid'] } }] },
  { slug: 'deep', name: 'Deep', fields: [{ name: 'inner', type: 'nestedComponent', options: { componentSlug: 'card-grid' } }] },
];

describe('the content object', () => {
  it.each([[null], ['text'], [42], [[1, 2]], [undefined]])('refuses %j as content', async (values) => {
    const result = await validateContent([field({ name: 'title', type: 'text' })], values, fakeLookups(), draft);
    expect(result).toEqual({ value: {}, issues: [{ path: 'fields', message: 'must be an object' }] });
  });

  it('refuses unknown keys', async () => {
    const result = await validateContent([field({ name: 'title', type: 'text' })], { title: 'x', foo: 1, 'bad key': 2 }, fakeLookups(), draft);
    expect(result.issues).toEqual([
      { path: 'fields.foo', message: 'unknown field' },
      { path: 'fields["bad key"]', message: 'unknown field' },
    ]);
    expect(result.value).toEqual({ title: 'x' });
  });

  it('treats null as "no value" for every type and stores it', async () => {
    const fields: SchemaField[] = [
      { name: 'a', type: 'number' },
      { name: 'b', type: 'reference', options: { collectionType: 'products' } },
      { name: 'c', type: 'nestedComponent', options: { componentSlug: 'hero' } },
    ];
    const lookups = fakeLookups({ components });
    const result = await validateContent(fields, { a: null, b: null, c: null }, lookups, draft);
    expect(result).toEqual({ value: { a: null, b: null, c: null }, issues: [] });
    expect(lookups.calls).toEqual([]);
  });
});

describe('text and textarea', () => {
  it.each(['text', 'textarea'] as const)('%s: a string, with minLength, maxLength and pattern', async (type) => {
    const definition = field({ name: 'code', type, options: { minLength: 2, maxLength: 4, pattern: '^[a-z]+$' } });
    await expectAccepted(definition, 'abc');
    expect(await issuesFor(definition, 42)).toEqual([{ path: 'fields.code', message: 'must be a string' }]);
    expect(await issuesFor(definition, 'a')).toEqual([{ path: 'fields.code', message: 'must be at least 2 characters' }]);
    expect(await issuesFor(definition, 'abcde')).toEqual([{ path: 'fields.code', message: 'must be at most 4 characters' }]);
    expect(await issuesFor(definition, 'AB')).toEqual([{ path: 'fields.code', message: 'must match the pattern ^[a-z]+$' }]);
  });

  it('uses patternMessage when given', async () => {
    const definition = field({ name: 'sku', type: 'text', options: { pattern: '^SKU-\\d+$', patternMessage: 'must look like SKU-123' } });
    await expectAccepted(definition, 'SKU-42');
    expect(await issuesFor(definition, 'sku42')).toEqual([{ path: 'fields.sku', message: 'must look like SKU-123' }]);
  });

  it('counts characters, not UTF-16 units', async () => {
    const definition = field({ name: 'emoji', type: 'text', options: { maxLength: 2 } });
    await expectAccepted(definition, '👍👍');
    expect(await issuesFor(definition, '👍👍👍')).toEqual([{ path: 'fields.emoji', message: 'must be at most 2 characters' }]);
  });

  it('treats an empty string as no value for minLength and pattern', async () => {
    await expectAccepted(field({ name: 'code', type: 'text', options: { minLength: 3, pattern: '^x' } }), '');
  });
});

describe('wysiwyg', () => {
  it('stores HTML exactly as sent, without sanitising', async () => {
    const html = '<p onclick="x()">Hi<script>alert(1)</script></p>';
    const result = await validateContent([field({ name: 'body', type: 'wysiwyg' })], { body: html }, fakeLookups(), draft);
    expect(result).toEqual({ value: { body: html }, issues: [] });
  });

  it('refuses a non-string', async () => {
    expect(await issuesFor(field({ name: 'body', type: 'wysiwyg' }), { html: '<p/>' })).toEqual([
      { path: 'fields.body', message: 'must be a string of HTML' },
    ]);
  });
});

describe('number', () => {
  const price = field({ name: 'price', type: 'number', options: { min: 0, max: 100, step: 1 } });

  it('accepts finite numbers within min and max', async () => {
    await expectAccepted(price, 0);
    await expectAccepted(price, 100);
  });

  it('does not enforce step (a UI hint)', async () => {
    await expectAccepted(price, 19.99);
  });

  it.each(['5', Number.NaN, Number.POSITIVE_INFINITY, true])('refuses %j', async (value) => {
    expect(await issuesFor(price, value)).toEqual([{ path: 'fields.price', message: 'must be a finite number' }]);
  });

  it('enforces min and max', async () => {
    expect(await issuesFor(price, -1)).toEqual([{ path: 'fields.price', message: 'must be >= 0' }]);
    expect(await issuesFor(price, 100.5)).toEqual([{ path: 'fields.price', message: 'must be <= 100' }]);
  });
});

describe('boolean', () => {
  const flag = field({ name: 'featured', type: 'boolean' });
  it('accepts true and false', async () => {
    await expectAccepted(flag, true);
    await expectAccepted(flag, false);
  });
  it.each(['true', 1, 0])('refuses %j', async (value) => {
    expect(await issuesFor(flag, value)).toEqual([{ path: 'fields.featured', message: 'must be a boolean' }]);
  });
});

describe('date and datetime', () => {
  it('date accepts a parseable date string', async () => {
    await expectAccepted(field({ name: 'day', type: 'date' }), '2024-05-01');
    expect(await issuesFor(field({ name: 'day', type: 'date' }), 'not a date')).toEqual([
      { path: 'fields.day', message: expect.stringContaining('must be a date string') },
    ]);
    expect(await issuesFor(field({ name: 'day', type: 'date' }), 20240501)).toEqual([
      { path: 'fields.day', message: expect.stringContaining('must be a date string') },
    ]);
  });

  it('datetime accepts what Date.parse accepts', async () => {
    await expectAccepted(field({ name: 'at', type: 'datetime' }), '2024-05-01T10:30:00.000Z');
    await expectAccepted(field({ name: 'at', type: 'datetime' }), 'May 1, 2024 10:30');
    expect(await issuesFor(field({ name: 'at', type: 'datetime' }), '2024-13-45T99:00')).toEqual([
      { path: 'fields.at', message: expect.stringContaining('must be a date-time string') },
    ]);
  });
});

describe('color', () => {
  const colour = field({ name: 'accent', type: 'color' });
  it.each(['#fff', '#A1B2C3', 'rgb(255, 0, 0)', 'rgba(0,0,0,0.5)', 'hsl(120, 50%, 50%)', 'hsla(120, 50%, 50%, 0.3)', 'Crimson'])(
    'accepts %s',
    async (value) => {
      await expectAccepted(colour, value);
    },
  );
  it.each(['#ffff', 'rgb(300, 0, 0)', 'blurple', 'papayawhip', 7])('refuses %j', async (value) => {
    expect(await issuesFor(colour, value)).toEqual([{ path: 'fields.accent', message: expect.stringContaining('must be a colour') }]);
  });
});

describe('json', () => {
  const data = field({ name: 'data', type: 'json' });
  it.each([[{ a: [1, 'x', null, { b: true }] }], [[1, 2]], ['text'], [3.5], [false], [null]])('accepts %j', async (value) => {
    await expectAccepted(data, value);
  });
  it.each([[{ a: undefined }], [{ n: Number.NaN }], [new Date(0)], [[() => 1]], [new Map()], [[1, [Number.POSITIVE_INFINITY]]]])('refuses a value JSON cannot hold (%#)', async (value) => {
    expect(await issuesFor(data, value)).toEqual([{ path: 'fields.data', message: 'must be a JSON value' }]);
  });
});

describe('select', () => {
  const size = field({ name: 'size', type: 'select', options: { choices: [{ label: 'Small', value: 's' }, { label: 'Large', value: 'l' }] } });
  it('accepts one of the choice values', async () => {
    await expectAccepted(size, 'l');
  });
  it('refuses a label or an unknown value, and a non-string', async () => {
    expect(await issuesFor(size, 'Large')).toEqual([{ path: 'fields.size', message: 'must be one of: "s", "l"' }]);
    expect(await issuesFor(size, 1)).toEqual([{ path: 'fields.size', message: 'must be a string' }]);
  });
  it('accepts any string in a select without choices', async () => {
    await expectAccepted(field({ name: 'size', type: 'select' }), 'anything');
  });
});

describe.each(['image', 'media'] as const)('%s', (type) => {
  const plain = field({ name: 'file', type });

  it('accepts a UUID string, { id } and { _media }, stored exactly as sent', async () => {
    for (const value of [ID.png, { id: ID.png }, { _media: ID.png }, ID.png.toUpperCase()]) {
      const result = await validateContent([plain], { file: value }, fakeLookups(), draft);
      expect(result.issues).toEqual([]);
      expect(result.value.file).toEqual(value);
    }
  });

  it.each(['not-a-uuid', { id: 'x' }, { id: ID.png, alt: 'extra' }, { url: 'http://x' }, 42])('refuses %j', async (value) => {
    expect(await issuesFor(plain, value)).toEqual([{ path: 'fields.file', message: expect.stringContaining('must be a valid media reference') }]);
  });

  it('checks that the media exists, in one lookups.media call (or existingIds without it)', async () => {
    const lookups = fakeLookups();
    expect(await issuesFor(plain, { _media: ID.missing }, lookups)).toEqual([
      { path: 'fields.file', message: `media "${ID.missing}" does not exist` },
    ]);
    expect(lookups.calls).toEqual([]);
    expect(lookups.mediaCalls).toEqual([[ID.missing]]);
    const bare = fakeLookups({ withMedia: false });
    expect(await issuesFor(plain, ID.missing, bare)).toEqual([{ path: 'fields.file', message: `media "${ID.missing}" does not exist` }]);
    expect(bare.calls).toEqual([{ target: { kind: 'media' }, ids: [ID.missing] }]);
  });

  it('enforces allowedMimeTypes (with type/* wildcards) and maxFileSize through lookups.media', async () => {
    const images = field({ name: 'file', type, options: { allowedMimeTypes: ['image/*'] } });
    await expectAccepted(images, ID.png);
    expect(await issuesFor(images, ID.pdf)).toEqual([
      { path: 'fields.file', message: 'media type application/pdf is not allowed (allowed: image/*)' },
    ]);
    const exact = field({ name: 'file', type, options: { allowedMimeTypes: ['application/pdf'] } });
    await expectAccepted(exact, { id: ID.pdf });
    expect(await issuesFor(exact, ID.png)).toEqual([{ path: 'fields.file', message: expect.stringContaining('image/png is not allowed') }]);
    const small = field({ name: 'file', type, options: { maxFileSize: 10_000 } });
    await expectAccepted(small, ID.png);
    const tiny = field({ name: 'file', type, options: { maxFileSize: 1_000 } });
    expect(await issuesFor(tiny, ID.png)).toEqual([
      { path: 'fields.file', message: 'media file is 2000 bytes, more than the maximum of 1000 bytes' },
    ]);
  });

  it('skips the file checks when lookups.media is not provided', async () => {
    await expectAccepted(field({ name: 'file', type, options: { maxFileSize: 1, allowedMimeTypes: ['image/png'] } }), ID.pdf, fakeLookups({ withMedia: false }));
  });
});

describe('image and media fields take any file unless their options restrict it', () => {
  const info: Record<string, MediaInfo> = {
    [ID.png]: { mimeType: 'image/png', size: 2_000 },
    [ID.pdf]: { mimeType: 'application/pdf', size: 900_000 },
    [ID.a]: { mimeType: 'text/plain', size: 12 },
    [ID.b]: { mimeType: 'image/svg+xml', size: 300 },
  };
  const lookups = () => fakeLookups({ media: info });
  const image = field({ name: 'photo', type: 'image' });
  const imagesOnly = field({ name: 'photo', type: 'image', options: { allowedMimeTypes: ['image/*'] } });

  it('an image field without allowedMimeTypes takes a text file and a PDF, in every value form (a valid media reference is all the contract asks)', async () => {
    for (const value of [ID.a, { id: ID.a }, { _media: ID.a }, ID.pdf, ID.png, { _media: ID.b }]) await expectAccepted(image, value, lookups());
  });

  it('reports every refused file at once with its path, inside repeaters too', async () => {
    const gallery = field({ name: 'gallery', type: 'repeater', options: { fields: [{ name: 'pic', type: 'image', options: { allowedMimeTypes: ['image/*'] } }, { name: 'caption', type: 'text' }] } });
    const result = await validateContent([imagesOnly, gallery], { photo: ID.pdf, gallery: [{ pic: ID.png }, { pic: { _media: ID.a } }] }, lookups(), draft);
    expect(result.issues).toEqual([
      { path: 'fields.photo', message: 'media type application/pdf is not allowed (allowed: image/*)' },
      { path: 'fields.gallery[1].pic', message: 'media type text/plain is not allowed (allowed: image/*)' },
    ]);
  });

  it('allowedMimeTypes restricts an image field', async () => {
    const docs = field({ name: 'photo', type: 'image', options: { allowedMimeTypes: ['application/pdf', 'image/*'] } });
    await expectAccepted(docs, ID.pdf, lookups());
    await expectAccepted(docs, ID.png, lookups());
    expect(await issuesFor(docs, ID.a, lookups())).toEqual([
      { path: 'fields.photo', message: 'media type text/plain is not allowed (allowed: application/pdf, image/*)' },
    ]);
  });

  it('a media field without allowedMimeTypes takes any type', async () => {
    const file = field({ name: 'file', type: 'media' });
    for (const id of [ID.a, ID.pdf, ID.png]) await expectAccepted(file, id, lookups());
  });
});

describe('reference', () => {
  const product = field({ name: 'product', type: 'reference', options: { collectionType: 'products' } });
  const products = field({ name: 'products', type: 'reference', options: { collectionType: 'products', multiple: true } });

  it('single: a bare UUID or { _ref, _type } with the referenceType, stored as sent', async () => {
    await expectAccepted(product, ID.a);
    await expectAccepted(product, { _ref: ID.a, _type: 'collectionItem' });
  });

  it('single: refuses a wrong or missing _type, a non-UUID, an array and extra properties', async () => {
    expect(await issuesFor(product, { _ref: ID.a, _type: 'products' })).toEqual([
      { path: 'fields.product._type', message: 'must be "collectionItem" (the field\'s referenceType)' },
    ]);
    expect(await issuesFor(product, { _ref: ID.a })).toEqual([
      { path: 'fields.product._type', message: 'must be "collectionItem" (the field\'s referenceType)' },
    ]);
    expect(await issuesFor(product, { _ref: 'abc', _type: 'collectionItem' })).toEqual([{ path: 'fields.product._ref', message: 'must be a UUID' }]);
    expect(await issuesFor(product, 'abc')).toEqual([{ path: 'fields.product', message: expect.stringContaining('must be a reference') }]);
    expect(await issuesFor(product, [ID.a])).toEqual([{ path: 'fields.product', message: expect.stringContaining('must be a single reference') }]);
    expect(await issuesFor(product, { _ref: ID.a, _type: 'collectionItem', slug: 'x' })).toEqual([
      { path: 'fields.product.slug', message: 'unknown property of a reference' },
    ]);
  });

  it('multiple: an array of references', async () => {
    await expectAccepted(products, [ID.a, { _ref: ID.b, _type: 'collectionItem' }]);
    await expectAccepted(products, []);
    expect(await issuesFor(products, ID.a)).toEqual([{ path: 'fields.products', message: expect.stringContaining('must be an array of references') }]);
    expect(await issuesFor(products, [ID.a, 7])).toEqual([{ path: 'fields.products[1]', message: expect.stringContaining('must be a reference') }]);
  });

  it('refuses references to items that do not exist', async () => {
    expect(await issuesFor(products, [ID.a, ID.missing])).toEqual([
      { path: 'fields.products[1]', message: `referenced item of collection "products" "${ID.missing}" does not exist` },
    ]);
  });

  it('asks existingIds with the target of each reference type', async () => {
    const fields: SchemaField[] = [
      { name: 'related', type: 'reference', options: { collectionType: 'products' } },
      { name: 'parent', type: 'reference', options: { referenceType: 'page', pageType: 'landing' } },
      { name: 'anyPage', type: 'reference', options: { referenceType: 'page' } },
      { name: 'author', type: 'reference', options: { referenceType: 'user' } },
      { name: 'post', type: 'reference', options: { referenceType: 'blogPost' } },
    ];
    const lookups = fakeLookups();
    const result = await validateContent(
      fields,
      {
        related: ID.a,
        parent: { _ref: ID.a, _type: 'page' },
        anyPage: ID.b,
        author: { _ref: ID.b, _type: 'user' },
        post: { _ref: ID.missing, _type: 'blogPost' },
      },
      lookups,
      draft,
    );
    expect(result.issues).toEqual([{ path: 'fields.post', message: `referenced blog post "${ID.missing}" does not exist` }]);
    expect(lookups.calls.map((call) => call.target)).toEqual(
      expect.arrayContaining([
        { kind: 'collectionItem', collectionType: 'products' },
        { kind: 'page', pageType: 'landing' },
        { kind: 'page' },
        { kind: 'user' },
        { kind: 'blogPost' },
      ]),
    );
    expect(lookups.calls).toHaveLength(5);
  });

  it('matches ids case-insensitively (PostgreSQL returns lower case) but stores them as sent', async () => {
    const result = await validateContent([product], { product: ID.a.toUpperCase() }, fakeLookups(), draft);
    expect(result).toEqual({ value: { product: ID.a.toUpperCase() }, issues: [] });
  });
});

describe('batched existence checks', () => {
  it('makes exactly one existingIds call for 30 references to the same collection', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const fields: SchemaField[] = [
      { name: 'featured', type: 'reference', options: { collectionType: 'products' } },
      { name: 'related', type: 'reference', options: { collectionType: 'products', multiple: true } },
      { name: 'rows', type: 'repeater', options: { fields: [{ name: 'item', type: 'reference', options: { collectionType: 'products' } }] } },
      { name: 'blocks', type: 'componentPicker' },
    ];
    const lookups = fakeLookups({ existing: ids, components });
    const result = await validateContent(
      fields,
      {
        featured: ids[0],
        related: ids.slice(1, 20).map((id) => ({ _ref: id, _type: 'collectionItem' })),
        rows: ids.slice(20, 28).map((id) => ({ item: id })),
        blocks: ids.slice(28).map((id) => ({ _type: 'quote', product: id })),
      },
      lookups,
      draft,
    );
    expect(result.issues).toEqual([]);
    const productCalls = lookups.calls.filter((call) => call.target.kind === 'collectionItem');
    expect(productCalls).toHaveLength(1);
    expect(productCalls[0]?.ids.sort()).toEqual([...ids].sort());
    expect(lookups.calls).toHaveLength(1);
  });

  it('asks once per distinct target, with each id once', async () => {
    const fields: SchemaField[] = [
      { name: 'a', type: 'reference', options: { collectionType: 'products', multiple: true } },
      { name: 'b', type: 'reference', options: { collectionType: 'brands' } },
      { name: 'c', type: 'image' },
      { name: 'd', type: 'media' },
    ];
    const lookups = fakeLookups();
    await validateContent(fields, { a: [ID.a, ID.a, ID.b], b: ID.a, c: ID.png, d: { _media: ID.png } }, lookups, draft);
    expect(lookups.calls).toHaveLength(2);
    expect(lookups.calls).toEqual(
      expect.arrayContaining([
        { target: { kind: 'collectionItem', collectionType: 'products' }, ids: [ID.a, ID.b] },
        { target: { kind: 'collectionItem', collectionType: 'brands' }, ids: [ID.a] },
      ]),
    );
    // Media existence, types and sizes in one call.
    expect(lookups.mediaCalls).toEqual([[ID.png]]);
  });

  it('makes no call when the content holds no ids', async () => {
    const lookups = fakeLookups();
    await validateContent([field({ name: 'title', type: 'text' })], { title: 'x' }, lookups, draft);
    expect(lookups.calls).toEqual([]);
  });
});

describe('componentPicker', () => {
  const blocks = field({ name: 'blocks', type: 'componentPicker', options: { allowedComponents: ['hero', 'quote'], maxItems: 2 } });
  const lookups = (): FakeLookups => fakeLookups({ components });

  it('accepts flat instances of allowed components', async () => {
    await expectAccepted(blocks, [{ _type: 'hero', title: 'Hello', tone: 'dark' }, { _type: 'quote', text: 'Wise words' }], lookups());
  });

  it('validates each instance against its component, with paths', async () => {
    expect(await issuesFor(blocks, [{ _type: 'hero', title: 'x'.repeat(21), tone: 'loud', extra: 1 }], lookups())).toEqual([
      { path: 'fields.blocks[0].extra', message: 'unknown field' },
      { path: 'fields.blocks[0].title', message: 'must be at most 20 characters' },
      { path: 'fields.blocks[0].tone', message: 'must be one of: "light", "dark"' },
    ]);
  });

  it('refuses a component that does not exist, is not allowed, or has no _type', async () => {
    const open = field({ name: 'blocks', type: 'componentPicker' });
    expect(await issuesFor(open, [{ _type: 'gallery' }], lookups())).toEqual([
      { path: 'fields.blocks[0]._type', message: 'unknown component "gallery"' },
    ]);
    expect(await issuesFor(blocks, [{ _type: 'card-grid' }], lookups())).toEqual([
      { path: 'fields.blocks[0]._type', message: 'component "card-grid" is not allowed here (allowed: hero, quote)' },
    ]);
    expect(await issuesFor(blocks, [{ title: 'x' }], lookups())).toEqual([{ path: 'fields.blocks[0]._type', message: 'required' }]);
    expect(await issuesFor(blocks, ['hero'], lookups())).toEqual([{ path: 'fields.blocks[0]', message: expect.stringContaining('must be a component instance') }]);
    expect(await issuesFor(blocks, { _type: 'hero' }, lookups())).toEqual([{ path: 'fields.blocks', message: 'must be an array of component instances' }]);
  });

  it('enforces maxItems', async () => {
    expect(await issuesFor(blocks, [{ _type: 'quote' }, { _type: 'quote' }, { _type: 'quote' }], lookups())).toEqual([
      { path: 'fields.blocks', message: 'must have at most 2 items' },
    ]);
  });

  it('allows one level of nesting, refuses deeper nesting and self-containment', async () => {
    const grid = field({ name: 'grid', type: 'nestedComponent', options: { componentSlug: 'card-grid' } });
    await expectAccepted(grid, { _type: 'card-grid', cards: [{ _type: 'hero', title: 'One', tone: 'light' }] }, lookups());
    expect(await issuesFor(grid, { cards: [{ _type: 'card-grid', cards: [] }] }, lookups())).toEqual([
      { path: 'fields.grid.cards[0]._type', message: 'component "card-grid" cannot contain itself' },
    ]);
    const deep = field({ name: 'deep', type: 'nestedComponent', options: { componentSlug: 'deep' } });
    expect(await issuesFor(deep, { inner: { cards: [] } }, lookups())).toEqual([]);
    expect(await issuesFor(deep, { inner: { cards: [{ _type: 'hero', title: 'Three levels' }] } }, lookups())).toEqual([
      { path: 'fields.deep.inner.cards[0]._type', message: expect.stringContaining('nest at most 1 level') },
    ]);
  });
});

describe('nestedComponent', () => {
  const hero = field({ name: 'hero', type: 'nestedComponent', options: { componentSlug: 'hero' } });

  it('fills in _type when omitted, and accepts it when it matches', async () => {
    const lookups = fakeLookups({ components });
    const omitted = await validateContent([hero], { hero: { title: 'Hi', tone: 'dark' } }, lookups, draft);
    expect(omitted).toEqual({ value: { hero: { _type: 'hero', title: 'Hi', tone: 'dark' } }, issues: [] });
    const given = await validateContent([hero], { hero: { _type: 'hero', title: 'Hi' } }, lookups, draft);
    expect(given).toEqual({ value: { hero: { _type: 'hero', title: 'Hi' } }, issues: [] });
  });

  it('refuses a different _type, a non-object and invalid inner values', async () => {
    const lookups = fakeLookups({ components });
    expect(await issuesFor(hero, { _type: 'quote' }, lookups)).toEqual([
      { path: 'fields.hero._type', message: 'must be "hero" (the component of this field) or left out' },
    ]);
    expect(await issuesFor(hero, 'hero', lookups)).toEqual([{ path: 'fields.hero', message: 'must be a component instance object' }]);
    expect(await issuesFor(hero, { title: 5, image: ID.missing }, lookups)).toEqual([
      { path: 'fields.hero.title', message: 'must be a string' },
      { path: 'fields.hero.image', message: `media "${ID.missing}" does not exist` },
    ]);
  });

  it('reports a component missing from the project', async () => {
    expect(await issuesFor(field({ name: 'x', type: 'nestedComponent', options: { componentSlug: 'gone' } }), {}, fakeLookups({ components }))).toEqual([
      { path: 'fields.x', message: 'unknown component "gone"' },
    ]);
  });
});

describe('repeater', () => {
  const rows = field({
    name: 'rows',
    type: 'repeater',
    options: { fields: [{ name: 'label', type: 'text', required: true }, { name: 'qty', type: 'number', options: { min: 1 } }], minItems: 2, maxItems: 3 },
  });

  it('accepts objects matching the sub-fields', async () => {
    await expectAccepted(rows, [{ label: 'a', qty: 1 }, { label: 'b' }]);
  });

  it('treats an empty list as no value for minItems', async () => {
    await expectAccepted(rows, []);
  });

  it('enforces minItems and maxItems', async () => {
    expect(await issuesFor(rows, [{ label: 'a' }])).toEqual([{ path: 'fields.rows', message: 'must have at least 2 items' }]);
    expect(await issuesFor(rows, [{}, {}, {}, {}])).toEqual([{ path: 'fields.rows', message: 'must have at most 3 items' }]);
  });

  it('validates each item, refusing unknown keys and non-objects', async () => {
    expect(await issuesFor(rows, [{ label: 'a', qty: 0, _type: 'row' }, 'b'])).toEqual([
      { path: 'fields.rows[0]._type', message: 'unknown field' },
      { path: 'fields.rows[0].qty', message: 'must be >= 1' },
      { path: 'fields.rows[1]', message: 'must be an object' },
    ]);
    expect(await issuesFor(rows, { label: 'a' })).toEqual([{ path: 'fields.rows', message: 'must be an array of objects' }]);
  });
});

describe('required and defaults', () => {
  const fields: SchemaField[] = [
    { name: 'title', type: 'text', required: true },
    { name: 'tags', type: 'json', required: true },
    { name: 'count', type: 'number', required: true },
    { name: 'done', type: 'boolean', required: true },
    { name: 'rows', type: 'repeater', options: { fields: [{ name: 'label', type: 'text', required: true }] } },
  ];

  it.each([[undefined], [null], [''], [[]]])('requireRequired: %j counts as no value', async (empty) => {
    const result = await validateContent(fields, { title: empty, tags: ['x'], count: 0, done: false }, fakeLookups(), {
      requireRequired: true,
      applyDefaults: false,
    });
    expect(result.issues).toEqual([{ path: 'fields.title', message: 'required' }]);
  });

  it('requireRequired reaches sub-fields of repeater items and component instances', async () => {
    const result = await validateContent(
      [...fields, { name: 'hero', type: 'nestedComponent', options: { componentSlug: 'hero' } }],
      { title: 't', tags: 1, count: 1, done: true, rows: [{ label: 'ok' }, { label: '' }], hero: {} },
      fakeLookups({ components }),
      { requireRequired: true, applyDefaults: false },
    );
    expect(result.issues).toEqual([
      { path: 'fields.rows[1].label', message: 'required' },
      { path: 'fields.hero.title', message: 'required' },
    ]);
  });

  it('drafts may leave required fields empty (values present are still validated)', async () => {
    const result = await validateContent(fields, { count: 'x' }, fakeLookups(), draft);
    expect(result.issues).toEqual([{ path: 'fields.count', message: 'must be a finite number' }]);
  });

  it('applyDefaults fills missing fields only, recursively, and not null ones', async () => {
    const withDefaults: SchemaField[] = [
      { name: 'status', type: 'select', defaultValue: 'open', options: { choices: [{ label: 'Open', value: 'open' }, { label: 'Closed', value: 'closed' }] } },
      { name: 'count', type: 'number', defaultValue: 1 },
      { name: 'note', type: 'text', defaultValue: 'n/a' },
      { name: 'hero', type: 'nestedComponent', options: { componentSlug: 'hero' }, defaultValue: { title: 'Welcome' } },
    ];
    const lookups = fakeLookups({ components });
    const created = await validateContent(withDefaults, { count: 5, note: null }, lookups, { requireRequired: true, applyDefaults: true });
    expect(created).toEqual({
      value: { status: 'open', count: 5, note: null, hero: { _type: 'hero', title: 'Welcome', tone: 'light' } },
      issues: [],
    });
    const updated = await validateContent(withDefaults, { count: 5 }, lookups, draft);
    expect(updated.value).toEqual({ count: 5 });
  });

  it('does not share a default object between documents', async () => {
    const list = field({ name: 'list', type: 'json', defaultValue: { items: [] } });
    const first = await validateContent([list], {}, fakeLookups(), { requireRequired: false, applyDefaults: true });
    expect(first.value.list).toEqual({ items: [] });
    expect(first.value.list).not.toBe(list.defaultValue);
  });
});

describe('every issue at once', () => {
  it('reports problems across the whole document in one pass, existence included', async () => {
    const fields: SchemaField[] = [
      { name: 'title', type: 'text', required: true, options: { maxLength: 5 } },
      { name: 'price', type: 'number', options: { min: 0 } },
      { name: 'sections', type: 'repeater', options: { fields: [{ name: 'title', type: 'text' }, { name: 'link', type: 'reference', options: { referenceType: 'page' } }] } },
      { name: 'cover', type: 'image' },
    ];
    const result = await validateContent(
      fields,
      { price: -3, sections: [{ title: 'ok' }, { title: 9, link: ID.missing }], cover: ID.missing, stray: true },
      fakeLookups(),
      { requireRequired: true, applyDefaults: false },
    );
    expect(result.issues).toEqual([
      { path: 'fields.stray', message: 'unknown field' },
      { path: 'fields.title', message: 'required' },
      { path: 'fields.price', message: 'must be >= 0' },
      { path: 'fields.sections[1].title', message: 'must be a string' },
      { path: 'fields.sections[1].link', message: `referenced page "${ID.missing}" does not exist` },
      { path: 'fields.cover', message: `media "${ID.missing}" does not exist` },
    ]);
  });
});
