import { describe, it, expect } from 'vitest';
import { collectRefs, requiredMissing, type SchemaField, type TypeDefinition } from '../../../src/core/schema/index.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const M = '33333333-3333-4333-8333-333333333333';
const N = '44444444-4444-4444-8444-444444444444';

const components: TypeDefinition[] = [
  {
    slug: 'hero',
    name: 'Hero',
    fields: [
      { name: 'title', type: 'text', required: true },
      { name: 'image', type: 'image' },
      { name: 'cta', type: 'reference', options: { referenceType: 'page' } },
    ],
  },
  { slug: 'loop', name: 'Loop', fields: [{ name: 'again', type: 'nestedComponent', options: { componentSlug: 'loop' } }, { name: 'pic', type: 'media' }] },
];
const component = (slug: string): TypeDefinition | undefined => components.find((c) => c.slug === slug);

const fields: SchemaField[] = [
  { name: 'title', type: 'text', required: true },
  { name: 'cover', type: 'image' },
  { name: 'author', type: 'reference', options: { referenceType: 'user' } },
  { name: 'related', type: 'reference', options: { collectionType: 'products', multiple: true } },
  { name: 'rows', type: 'repeater', options: { fields: [{ name: 'file', type: 'media', required: true }, { name: 'post', type: 'reference', options: { referenceType: 'blogPost' } }] } },
  { name: 'hero', type: 'nestedComponent', options: { componentSlug: 'hero' } },
  { name: 'blocks', type: 'componentPicker' },
];

describe('collectRefs', () => {
  it('finds every reference and media id with its path, form and target', () => {
    const refs = collectRefs(
      fields,
      {
        title: 'x',
        cover: { _media: M },
        author: { _ref: A, _type: 'user' },
        related: [B, { _ref: A, _type: 'collectionItem' }],
        rows: [{ file: N, post: { _ref: B, _type: 'blogPost' } }, { file: { id: M } }],
        hero: { title: 'Hi', image: { _media: N }, cta: A },
        blocks: [{ _type: 'hero', title: 'Block', cta: { _ref: B, _type: 'page' } }],
      },
      component,
    );
    expect(refs).toEqual([
      { kind: 'media', path: 'fields.cover', id: M, form: '_media' },
      { kind: 'reference', path: 'fields.author', id: A, target: { kind: 'user' }, form: 'object' },
      { kind: 'reference', path: 'fields.related[0]', id: B, target: { kind: 'collectionItem', collectionType: 'products' }, form: 'bare' },
      { kind: 'reference', path: 'fields.related[1]', id: A, target: { kind: 'collectionItem', collectionType: 'products' }, form: 'object' },
      { kind: 'media', path: 'fields.rows[0].file', id: N, form: 'uuid' },
      { kind: 'reference', path: 'fields.rows[0].post', id: B, target: { kind: 'blogPost' }, form: 'object' },
      { kind: 'media', path: 'fields.rows[1].file', id: M, form: 'id' },
      { kind: 'media', path: 'fields.hero.image', id: N, form: '_media' },
      { kind: 'reference', path: 'fields.hero.cta', id: A, target: { kind: 'page' }, form: 'bare' },
      { kind: 'reference', path: 'fields.blocks[0].cta', id: B, target: { kind: 'page' }, form: 'object' },
    ]);
  });

  it('skips values of the wrong shape, unknown components and cycles in stored content', () => {
    const refs = collectRefs(
      [...fields, { name: 'loop', type: 'nestedComponent', options: { componentSlug: 'loop' } }],
      {
        cover: 'not-a-uuid',
        related: 'nope',
        rows: 'nope',
        blocks: [{ _type: 'gone', image: M }, 'junk'],
        loop: { pic: M, again: { pic: N, again: { pic: A } } },
      },
      component,
    );
    expect(refs).toEqual([
      // The walk stops where a component would contain itself again.
      { kind: 'media', path: 'fields.loop.pic', id: M, form: 'uuid' },
    ]);
    expect(collectRefs(fields, null, component)).toEqual([]);
  });
});

describe('requiredMissing', () => {
  it('lists top-level required fields with no value by name', () => {
    expect(requiredMissing(fields, { title: '' })).toEqual(['title']);
    expect(requiredMissing(fields, {})).toEqual(['title']);
    expect(requiredMissing(fields, { title: 'ok' })).toEqual([]);
    expect(requiredMissing([{ name: 'tags', type: 'json', required: true }, { name: 'on', type: 'boolean', required: true }], { tags: [], on: false })).toEqual(['tags']);
  });

  it('lists required sub-fields of repeater items, and of components when given the lookup', () => {
    const values = { title: 't', rows: [{ file: M }, { file: null }], hero: { title: '' }, blocks: [{ _type: 'hero' }] };
    expect(requiredMissing(fields, values)).toEqual(['rows[1].file']);
    expect(requiredMissing(fields, values, component)).toEqual(['rows[1].file', 'hero.title', 'blocks[0].title']);
  });
});
