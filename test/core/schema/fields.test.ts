import { describe, it, expect } from 'vitest';
import {
  fieldTypes,
  schemaFieldSchema,
  typeDefinitionJsonSchema,
  validateTypeDefinition,
  type FieldType,
  type Issue,
} from '../../../src/core/schema/index.js';

/** Issues of a type definition holding the given fields (fails the test if it was valid). */
function issuesOf(fields: unknown[], extra: Record<string, unknown> = {}): Issue[] {
  const result = validateTypeDefinition({ slug: 'article', name: 'Article', fields, ...extra });
  if (result.ok) throw new Error('expected the definition to be refused');
  return result.issues;
}

function expectValid(fields: unknown[]): void {
  const result = validateTypeDefinition({ slug: 'article', name: 'Article', fields });
  expect(result.ok ? [] : result.issues).toEqual([]);
}

/** Options each type needs to be valid at all, so other options can be tested alone. */
const baseOptions: Record<FieldType, Record<string, unknown> | undefined> = {
  text: undefined,
  textarea: undefined,
  wysiwyg: undefined,
  image: undefined,
  media: undefined,
  number: undefined,
  boolean: undefined,
  date: undefined,
  datetime: undefined,
  color: undefined,
  json: undefined,
  select: { choices: [{ label: 'A', value: 'a' }] },
  reference: { collectionType: 'products' },
  componentPicker: undefined,
  nestedComponent: { componentSlug: 'hero' },
  repeater: { fields: [{ name: 'label', type: 'text' }] },
};

const UUID = '4f9c2a8e-1b2c-4d3e-8f90-123456789abc';

describe('validateTypeDefinition: the definition itself', () => {
  it('accepts a definition using all 16 field types and returns it without $schema', () => {
    const fields = fieldTypes.map((type) => ({ name: `f_${type}`, type, ...(baseOptions[type] ? { options: baseOptions[type] } : {}) }));
    const result = validateTypeDefinition({ $schema: '../schema.json', slug: 'every-type', name: 'Every type', fields });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toEqual({ slug: 'every-type', name: 'Every type', fields });
    expect('$schema' in result.value).toBe(false);
    expect(fieldTypes).toHaveLength(16);
  });

  it('accepts a definition with no fields', () => {
    expect(validateTypeDefinition({ slug: 'plain', name: 'Plain', fields: [] }).ok).toBe(true);
  });

  it.each(['article', 'blog-post', 'a1-b2', '404'])('accepts slug %s', (slug) => {
    expect(validateTypeDefinition({ slug, name: 'X', fields: [] }).ok).toBe(true);
  });

  it.each(['-a', 'a-', 'a--b', 'a_b', 'Article', 'a b', ''])('refuses slug %j', (slug) => {
    const result = validateTypeDefinition({ slug, name: 'X', fields: [] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues).toEqual([{ path: 'slug', message: expect.stringContaining('kebab-case') }]);
  });

  it('requires a name of 1 to 255 characters', () => {
    expect(validateTypeDefinition({ slug: 'a', name: 'x'.repeat(255), fields: [] }).ok).toBe(true);
    expect(issuesOf([], { name: '' })).toEqual([{ path: 'name', message: 'must not be empty' }]);
    expect(issuesOf([], { name: 'x'.repeat(256) })).toEqual([{ path: 'name', message: 'must be at most 255 characters' }]);
  });

  it('reports missing slug, name and fields, and unknown top-level properties', () => {
    const result = validateTypeDefinition({ title: 'x' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual(
      expect.arrayContaining([
        { path: 'slug', message: 'required' },
        { path: 'name', message: 'required' },
        { path: 'fields', message: 'required' },
        { path: 'title', message: 'unknown property "title"' },
      ]),
    );
    expect(result.issues).toHaveLength(4);
  });

  it('refuses a non-object input', () => {
    const result = validateTypeDefinition('page');
    expect(result).toEqual({ ok: false, issues: [{ path: '', message: 'must be an object' }] });
  });
});

describe('field name, type and common properties', () => {
  it.each(['title', 'Title', 'a', 'hero_image2', 'x_'])('accepts name %s', (name) => {
    expectValid([{ name, type: 'text' }]);
  });

  it.each(['bad-name', '1abc', '_x', 'has space', '', 'é'])('refuses name %j with a message naming the pattern', (name) => {
    expect(issuesOf([{ name, type: 'text' }])).toEqual([
      { path: 'fields[0].name', message: expect.stringContaining('^[a-zA-Z][a-zA-Z0-9_]*$') },
    ]);
  });

  it('requires name and type', () => {
    expect(issuesOf([{ type: 'text' }])).toEqual([{ path: 'fields[0].name', message: 'required' }]);
    expect(issuesOf([{ name: 'title' }])).toEqual([{ path: 'fields[0].type', message: 'required' }]);
  });

  it('refuses an unknown type and still checks the name of that field', () => {
    expect(issuesOf([{ name: 'bad-name', type: 'richtext' }])).toEqual([
      { path: 'fields[0].type', message: expect.stringContaining('unknown field type "richtext"') },
      { path: 'fields[0].name', message: expect.stringContaining('must match') },
    ]);
  });

  it('checks label and required types', () => {
    expectValid([{ name: 'title', type: 'text', label: 'Title', required: true }]);
    expect(issuesOf([{ name: 'title', type: 'text', label: 3, required: 'yes' }])).toEqual([
      { path: 'fields[0].label', message: 'must be a string' },
      { path: 'fields[0].required', message: 'must be a boolean' },
    ]);
  });

  it('refuses an unknown property on a field by name', () => {
    expect(issuesOf([{ name: 'title', type: 'text', requried: true }])).toEqual([
      { path: 'fields[0].requried', message: 'unknown property "requried" of a field' },
    ]);
  });

  it('refuses a field that is not an object', () => {
    expect(issuesOf(['title'])).toEqual([{ path: 'fields[0]', message: 'must be an object' }]);
  });

  it('refuses duplicate field names within one list', () => {
    expect(issuesOf([{ name: 'title', type: 'text' }, { name: 'body', type: 'wysiwyg' }, { name: 'title', type: 'number' }])).toEqual([
      { path: 'fields[2].name', message: 'duplicate field name "title" (also used by fields[0])' },
    ]);
  });

  it('allows the same name in a repeater and at the top level, but not twice inside the repeater', () => {
    expectValid([
      { name: 'title', type: 'text' },
      { name: 'items', type: 'repeater', options: { fields: [{ name: 'title', type: 'text' }] } },
    ]);
    expect(
      issuesOf([{ name: 'items', type: 'repeater', options: { fields: [{ name: 'a', type: 'text' }, { name: 'a', type: 'number' }] } }]),
    ).toEqual([{ path: 'fields[0].options.fields[1].name', message: 'duplicate field name "a" (also used by fields[0])' }]);
  });
});

describe('options: unknown options and the shared ones', () => {
  it.each(fieldTypes)('refuses an unknown option by name on a %s field', (type) => {
    const options = { ...baseOptions[type], foo: 1 };
    expect(issuesOf([{ name: 'f', type, options }])).toEqual([
      { path: 'fields[0].options.foo', message: `unknown option "foo" for a ${type} field` },
    ]);
  });

  it.each(fieldTypes)('accepts placeholder and helpText on a %s field', (type) => {
    expectValid([{ name: 'f', type, options: { ...baseOptions[type], placeholder: 'Type here', helpText: 'Shown below' } }]);
  });

  it('refuses options of another type (min on a text field)', () => {
    expect(issuesOf([{ name: 'f', type: 'text', options: { min: 1, choices: [] } }])).toEqual([
      { path: 'fields[0].options.min', message: 'unknown option "min" for a text field' },
      { path: 'fields[0].options.choices', message: 'unknown option "choices" for a text field' },
    ]);
  });

  it('refuses options that are not an object, and non-string placeholder', () => {
    expect(issuesOf([{ name: 'f', type: 'text', options: 'big' }])).toEqual([{ path: 'fields[0].options', message: 'must be an object' }]);
    expect(issuesOf([{ name: 'f', type: 'boolean', options: { helpText: 5 } }])).toEqual([
      { path: 'fields[0].options.helpText', message: 'must be a string' },
    ]);
  });
});

describe('options per type', () => {
  it.each(['text', 'textarea'] as const)('%s: minLength, maxLength, pattern, patternMessage', (type) => {
    expectValid([{ name: 'f', type, options: { minLength: 0, maxLength: 10, pattern: '^[a-z]+$', patternMessage: 'lowercase only' } }]);
    expect(issuesOf([{ name: 'f', type, options: { minLength: -1, maxLength: 2.5, pattern: '([a-z', patternMessage: 3 } }])).toEqual([
      { path: 'fields[0].options.minLength', message: 'must be >= 0' },
      { path: 'fields[0].options.maxLength', message: 'must be an integer' },
      { path: 'fields[0].options.pattern', message: expect.stringContaining('must be a valid regular expression') },
      { path: 'fields[0].options.patternMessage', message: 'must be a string' },
    ]);
    expect(issuesOf([{ name: 'f', type, options: { minLength: 5, maxLength: 4 } }])).toEqual([
      { path: 'fields[0].options.minLength', message: 'must not be greater than maxLength (4)' },
    ]);
  });

  it.each(['image', 'media'] as const)('%s: allowedMimeTypes and maxFileSize', (type) => {
    expectValid([{ name: 'f', type, options: { allowedMimeTypes: ['image/png', 'image/*'], maxFileSize: 1_000_000 } }]);
    expect(issuesOf([{ name: 'f', type, options: { allowedMimeTypes: 'image/png', maxFileSize: 0 } }])).toEqual([
      { path: 'fields[0].options.allowedMimeTypes', message: 'must be an array' },
      { path: 'fields[0].options.maxFileSize', message: 'must be > 0' },
    ]);
    expect(issuesOf([{ name: 'f', type, options: { allowedMimeTypes: ['image/png', 7], maxFileSize: 1.5 } }])).toEqual([
      { path: 'fields[0].options.allowedMimeTypes[1]', message: 'must be a string' },
      { path: 'fields[0].options.maxFileSize', message: 'must be an integer' },
    ]);
  });

  it('number: min, max, step', () => {
    expectValid([{ name: 'f', type: 'number', options: { min: -5, max: 5.5, step: 0.5 } }]);
    expect(issuesOf([{ name: 'f', type: 'number', options: { min: 10, max: 1, step: 0 } }])).toEqual([
      { path: 'fields[0].options.step', message: 'must be > 0' },
      { path: 'fields[0].options.min', message: 'must not be greater than max (1)' },
    ]);
    expect(issuesOf([{ name: 'f', type: 'number', options: { min: '1' } }])).toEqual([
      { path: 'fields[0].options.min', message: 'must be a number' },
    ]);
  });

  it('select: choices are { label: string, value: string } with distinct values', () => {
    expectValid([{ name: 'f', type: 'select', options: { choices: [{ label: 'Red', value: 'red' }, { label: 'Blue', value: 'blue' }] } }]);
    expect(
      issuesOf([
        {
          name: 'f',
          type: 'select',
          options: { choices: [{ label: 'Red' }, { label: 'Blue', value: 2 }, { label: 'Red', value: 'red', colour: 'x' }, { label: 'Again', value: 'red' }] },
        },
      ]),
    ).toEqual([
      { path: 'fields[0].options.choices[0].value', message: 'required' },
      { path: 'fields[0].options.choices[1].value', message: 'must be a string' },
      { path: 'fields[0].options.choices[2].colour', message: 'unknown property "colour" of a choice' },
      { path: 'fields[0].options.choices[3].value', message: 'duplicate choice value "red"' },
    ]);
    expect(issuesOf([{ name: 'f', type: 'select', options: { choices: ['red'] } }])).toEqual([
      { path: 'fields[0].options.choices[0]', message: 'must be an object' },
    ]);
    expect(issuesOf([{ name: 'f', type: 'select', options: { choices: [] } }])).toEqual([
      { path: 'fields[0].options.choices', message: 'must not be empty: give at least one choice, like [{ "label": "Red", "value": "red" }], or leave choices out to allow any string' },
    ]);
  });

  it('select: choices may be left out (the contract: "if choices are defined"), in repeaters too; an empty list is refused with every other problem', () => {
    expectValid([{ name: 'role', type: 'select' }]);
    expectValid([{ name: 'role', type: 'select', options: { helpText: 'Pick one' } }]);
    expect(
      issuesOf([
        { name: 'title', type: 'text' },
        { name: 'bad-name', type: 'text' },
        { name: 'role', type: 'select' },
        { name: 'people', type: 'repeater', options: { fields: [{ name: 'who', type: 'text' }, { name: 'level', type: 'select', options: { choices: [] } }] } },
      ]),
    ).toEqual([
      { path: 'fields[1].name', message: expect.stringContaining('must match') },
      { path: 'fields[3].options.fields[1].options.choices', message: expect.stringContaining('must not be empty') },
    ]);
  });

  it('componentPicker: allowedComponents and maxItems', () => {
    expectValid([{ name: 'f', type: 'componentPicker' }]);
    expectValid([{ name: 'f', type: 'componentPicker', options: { allowedComponents: ['hero', 'call-to-action'], maxItems: 3 } }]);
    expect(issuesOf([{ name: 'f', type: 'componentPicker', options: { allowedComponents: ['Hero'], maxItems: 0 } }])).toEqual([
      { path: 'fields[0].options.allowedComponents[0]', message: expect.stringContaining('kebab-case') },
      { path: 'fields[0].options.maxItems', message: 'must be > 0' },
    ]);
    expect(issuesOf([{ name: 'f', type: 'componentPicker', options: { allowedComponents: [] } }])).toEqual([
      { path: 'fields[0].options.allowedComponents', message: 'must have at least 1 item' },
    ]);
  });

  it('nestedComponent: componentSlug is required and kebab-case', () => {
    expectValid([{ name: 'f', type: 'nestedComponent', options: { componentSlug: 'hero-banner' } }]);
    expect(issuesOf([{ name: 'f', type: 'nestedComponent' }])).toEqual([{ path: 'fields[0].options.componentSlug', message: 'required' }]);
    expect(issuesOf([{ name: 'f', type: 'nestedComponent', options: {} }])).toEqual([
      { path: 'fields[0].options.componentSlug', message: 'required' },
    ]);
    expect(issuesOf([{ name: 'f', type: 'nestedComponent', options: { componentSlug: 'heroBanner' } }])).toEqual([
      { path: 'fields[0].options.componentSlug', message: expect.stringContaining('kebab-case') },
    ]);
  });

  it('repeater: fields required with at least one, minItems <= maxItems, sub-fields validated', () => {
    expectValid([{ name: 'f', type: 'repeater', options: { fields: [{ name: 'a', type: 'text' }], minItems: 0, maxItems: 4 } }]);
    expect(issuesOf([{ name: 'f', type: 'repeater' }])).toEqual([{ path: 'fields[0].options.fields', message: 'required' }]);
    expect(issuesOf([{ name: 'f', type: 'repeater', options: { fields: [] } }])).toEqual([
      { path: 'fields[0].options.fields', message: 'must have at least 1 item' },
    ]);
    expect(issuesOf([{ name: 'f', type: 'repeater', options: { fields: [{ name: 'a', type: 'text' }], minItems: 5, maxItems: 2 } }])).toEqual([
      { path: 'fields[0].options.minItems', message: 'must not be greater than maxItems (2)' },
    ]);
    expect(
      issuesOf([{ name: 'f', type: 'repeater', options: { fields: [{ name: 'a-b', type: 'number', options: { min: 'x' } }] } }]),
    ).toEqual([
      { path: 'fields[0].options.fields[0].name', message: expect.stringContaining('must match') },
      { path: 'fields[0].options.fields[0].options.min', message: 'must be a number' },
    ]);
  });

  it.each(['componentPicker', 'nestedComponent', 'repeater'] as const)('repeater rule: a %s sub-field is refused', (type) => {
    const sub = { name: 'inner', type, ...(baseOptions[type] ? { options: baseOptions[type] } : {}) };
    expect(issuesOf([{ name: 'f', type: 'repeater', options: { fields: [{ name: 'ok', type: 'text' }, sub] } }])).toEqual([
      { path: 'fields[0].options.fields[1].type', message: expect.stringContaining(`cannot be of type ${type}`) },
    ]);
  });
});

describe('reference option rules', () => {
  it('rule 1: collectionItem (explicit or default) needs collectionType', () => {
    expectValid([{ name: 'f', type: 'reference', options: { collectionType: 'products' } }]);
    expectValid([{ name: 'f', type: 'reference', options: { referenceType: 'collectionItem', collectionType: 'products', multiple: true } }]);
    expect(issuesOf([{ name: 'f', type: 'reference', options: {} }])).toEqual([
      { path: 'fields[0].options.collectionType', message: expect.stringContaining('required when referenceType is collectionItem') },
    ]);
    expect(issuesOf([{ name: 'f', type: 'reference', options: { referenceType: 'collectionItem' } }])).toEqual([
      { path: 'fields[0].options.collectionType', message: expect.stringContaining('required') },
    ]);
    expect(issuesOf([{ name: 'f', type: 'reference' }])).toEqual([
      { path: 'fields[0].options.collectionType', message: expect.stringContaining('required') },
    ]);
  });

  it('rule 1: pageType is refused on a collectionItem reference', () => {
    expect(issuesOf([{ name: 'f', type: 'reference', options: { collectionType: 'products', pageType: 'landing' } }])).toEqual([
      { path: 'fields[0].options.pageType', message: 'only allowed when referenceType is page' },
    ]);
  });

  it('rule 2: page may have pageType; a collectionType beside it is unused, not refused', () => {
    expectValid([{ name: 'f', type: 'reference', options: { referenceType: 'page' } }]);
    expectValid([{ name: 'f', type: 'reference', options: { referenceType: 'page', pageType: 'landing' } }]);
    expectValid([{ name: 'f', type: 'reference', options: { referenceType: 'page', collectionType: 'products' } }]);
  });

  it.each(['user', 'blogPost'] as const)('rule 3: %s takes neither collectionType nor pageType', (referenceType) => {
    expectValid([{ name: 'f', type: 'reference', options: { referenceType } }]);
    expect(issuesOf([{ name: 'f', type: 'reference', options: { referenceType, collectionType: 'products', pageType: 'landing' } }])).toEqual([
      { path: 'fields[0].options.collectionType', message: `must not be set when referenceType is ${referenceType}` },
      { path: 'fields[0].options.pageType', message: `must not be set when referenceType is ${referenceType}` },
    ]);
  });

  it('refuses an unknown referenceType and a non-boolean multiple', () => {
    expect(issuesOf([{ name: 'f', type: 'reference', options: { referenceType: 'author', multiple: 'yes' } }])).toEqual([
      { path: 'fields[0].options.multiple', message: 'must be a boolean' },
      { path: 'fields[0].options.referenceType', message: 'must be one of: "page", "collectionItem", "user", "blogPost"' },
    ]);
  });
});

describe('defaultValue must be valid for its field', () => {
  it.each([
    [{ name: 'f', type: 'text', options: { maxLength: 5 }, defaultValue: 'hello' }],
    [{ name: 'f', type: 'number', options: { min: 0 }, defaultValue: 3 }],
    [{ name: 'f', type: 'boolean', defaultValue: false }],
    [{ name: 'f', type: 'color', defaultValue: '#fff' }],
    [{ name: 'f', type: 'json', defaultValue: { a: [1, 2] } }],
    [{ name: 'f', type: 'select', options: { choices: [{ label: 'A', value: 'a' }] }, defaultValue: 'a' }],
    [{ name: 'f', type: 'reference', options: { referenceType: 'user' }, defaultValue: { _ref: UUID, _type: 'user' } }],
    [{ name: 'f', type: 'image', defaultValue: UUID }],
    [{ name: 'f', type: 'nestedComponent', options: { componentSlug: 'hero' }, defaultValue: { title: 'Hi' } }],
    [{ name: 'f', type: 'componentPicker', defaultValue: [{ _type: 'hero' }] }],
    [{ name: 'f', type: 'repeater', options: { fields: [{ name: 'a', type: 'text' }] }, defaultValue: [{ a: 'x' }] }],
    [{ name: 'f', type: 'date', defaultValue: null }],
  ])('accepts %j', (field) => {
    expectValid([field]);
  });

  it.each([
    [{ name: 'f', type: 'text', options: { maxLength: 3 }, defaultValue: 'hello' }, 'fields[0].defaultValue', 'must be at most 3 characters'],
    [{ name: 'f', type: 'number', defaultValue: '3' }, 'fields[0].defaultValue', 'must be a finite number'],
    [{ name: 'f', type: 'date', defaultValue: 'someday' }, 'fields[0].defaultValue', expect.stringContaining('date')],
    [{ name: 'f', type: 'color', defaultValue: 'blurple' }, 'fields[0].defaultValue', expect.stringContaining('colour')],
    [{ name: 'f', type: 'select', options: { choices: [{ label: 'A', value: 'a' }] }, defaultValue: 'b' }, 'fields[0].defaultValue', 'must be one of: "a"'],
    [{ name: 'f', type: 'reference', options: { referenceType: 'user' }, defaultValue: { _ref: UUID, _type: 'page' } }, 'fields[0].defaultValue._type', expect.stringContaining('"user"')],
    [{ name: 'f', type: 'image', defaultValue: 'not-a-uuid' }, 'fields[0].defaultValue', expect.stringContaining('valid media reference')],
    [{ name: 'f', type: 'nestedComponent', options: { componentSlug: 'hero' }, defaultValue: { _type: 'banner' } }, 'fields[0].defaultValue._type', expect.stringContaining('"hero"')],
    [{ name: 'f', type: 'componentPicker', options: { allowedComponents: ['hero'] }, defaultValue: [{ _type: 'banner' }] }, 'fields[0].defaultValue[0]._type', expect.stringContaining('not allowed')],
    [{ name: 'f', type: 'repeater', options: { fields: [{ name: 'a', type: 'text' }] }, defaultValue: [{ b: 'x' }] }, 'fields[0].defaultValue[0].b', 'unknown field'],
  ])('refuses %j', (field, path, message) => {
    expect(issuesOf([field])).toEqual([{ path, message }]);
  });

  it('does not judge a default against options that are themselves invalid', () => {
    expect(issuesOf([{ name: 'f', type: 'text', options: { maxLength: 'three' }, defaultValue: 'hello' }])).toEqual([
      { path: 'fields[0].options.maxLength', message: 'must be a number' },
    ]);
  });

  it('reports a bad default together with a bad name', () => {
    expect(issuesOf([{ name: 'bad-name', type: 'number', defaultValue: 'x' }])).toEqual([
      { path: 'fields[0].name', message: expect.stringContaining('must match') },
      { path: 'fields[0].defaultValue', message: 'must be a finite number' },
    ]);
  });
});

describe('acceptance: every problem at once', () => {
  it('reports the four problems with their paths', () => {
    const result = validateTypeDefinition({
      slug: 'landing',
      name: 'Landing',
      fields: [
        { name: 'bad-name', type: 'text' },
        {
          name: 'items',
          type: 'repeater',
          options: { fields: [{ name: 'inner', type: 'repeater', options: { fields: [{ name: 'x', type: 'text' }] } }] },
        },
        { name: 'author', type: 'reference', options: { referenceType: 'user', collectionType: 'authors' } },
        { name: 'hero', type: 'nestedComponent', options: {} },
      ],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toHaveLength(4);
    expect(result.issues).toEqual([
      { path: 'fields[0].name', message: expect.stringContaining('^[a-zA-Z][a-zA-Z0-9_]*$') },
      { path: 'fields[1].options.fields[0].type', message: expect.stringContaining('cannot be of type repeater') },
      { path: 'fields[2].options.collectionType', message: 'must not be set when referenceType is user' },
      { path: 'fields[3].options.componentSlug', message: 'required' },
    ]);
  });
});

describe('schemaFieldSchema and the JSON Schema', () => {
  it('parses a single field directly', () => {
    expect(schemaFieldSchema.safeParse({ name: 'title', type: 'text', options: { maxLength: 80 } }).success).toBe(true);
    expect(schemaFieldSchema.safeParse({ name: 'title', type: 'text', options: { max: 80 } }).success).toBe(false);
  });

  it('describes every field type and closes the option objects', () => {
    const json = typeDefinitionJsonSchema() as {
      properties: Record<string, unknown>;
      additionalProperties: unknown;
      $defs: { SchemaField: { oneOf: Array<{ properties: { type: { const: string }; options: { additionalProperties: unknown; required?: string[] } } }> } };
    };
    expect(Object.keys(json.properties).sort()).toEqual(['$schema', 'fields', 'name', 'slug']);
    expect(json.additionalProperties).toEqual({ not: {} });
    const variants = json.$defs.SchemaField.oneOf;
    expect(variants.map((variant) => variant.properties.type.const).sort()).toEqual([...fieldTypes].sort());
    for (const variant of variants) expect(variant.properties.options.additionalProperties).toEqual({ not: {} });
    const nested = variants.find((variant) => variant.properties.type.const === 'nestedComponent');
    expect(nested?.properties.options.required).toEqual(['componentSlug']);
    expect(() => JSON.stringify(json)).not.toThrow();
  });
});
