import { describe, it, expect } from 'vitest';
import { checkSchemaSet, type SchemaField, type SchemaSet, type TypeDefinition } from '../../../src/core/schema/index.js';

function def(slug: string, fields: SchemaField[]): TypeDefinition {
  return { slug, name: slug, fields };
}

const hero = def('hero', [{ name: 'title', type: 'text', required: true }]);
const quote = def('quote', [{ name: 'text', type: 'textarea' }]);
const cardGrid = def('card-grid', [{ name: 'cards', type: 'componentPicker', options: { allowedComponents: ['hero', 'quote'] } }]);

function set(partial: Partial<SchemaSet>): SchemaSet {
  return { pageTypes: [], collections: [], components: [], ...partial };
}

describe('checkSchemaSet', () => {
  it('accepts a consistent set, with one level of component nesting', () => {
    const issues = checkSchemaSet(
      set({
        components: [hero, quote, cardGrid],
        collections: [def('products', [{ name: 'name', type: 'text' }])],
        pageTypes: [
          def('landing', [
            { name: 'hero', type: 'nestedComponent', options: { componentSlug: 'hero' }, defaultValue: { title: 'Welcome' } },
            { name: 'blocks', type: 'componentPicker', options: { allowedComponents: ['card-grid', 'quote'] }, defaultValue: [{ _type: 'quote' }] },
            { name: 'product', type: 'reference', options: { collectionType: 'products' } },
            { name: 'parent', type: 'reference', options: { referenceType: 'page', pageType: 'landing' } },
          ]),
        ],
      }),
    );
    expect(issues).toEqual([]);
  });

  it('refuses unknown components in componentSlug and allowedComponents', () => {
    const issues = checkSchemaSet(
      set({
        components: [hero],
        pageTypes: [
          def('landing', [
            { name: 'a', type: 'nestedComponent', options: { componentSlug: 'banner' } },
            { name: 'b', type: 'componentPicker', options: { allowedComponents: ['hero', 'gallery'] } },
          ]),
        ],
      }),
    );
    expect(issues).toEqual([
      { kind: 'pageTypes', slug: 'landing', path: 'fields[0].options.componentSlug', message: 'unknown component "banner"' },
      { kind: 'pageTypes', slug: 'landing', path: 'fields[1].options.allowedComponents[1]', message: 'unknown component "gallery"' },
    ]);
  });

  it('refuses unknown collections and page types, also inside repeaters', () => {
    const issues = checkSchemaSet(
      set({
        collections: [
          def('products', [
            { name: 'rows', type: 'repeater', options: { fields: [{ name: 'brand', type: 'reference', options: { collectionType: 'brands' } }] } },
          ]),
        ],
        pageTypes: [def('landing', [
          { name: 'parent', type: 'reference', options: { referenceType: 'page', pageType: 'blog' } },
          // A page reference's collectionType is unused (contract, reference option rule 2): never checked.
          { name: 'sibling', type: 'reference', options: { referenceType: 'page', collectionType: 'nowhere' } },
        ])],
      }),
    );
    expect(issues).toEqual([
      { kind: 'pageTypes', slug: 'landing', path: 'fields[0].options.pageType', message: 'unknown page type "blog"' },
      { kind: 'collections', slug: 'products', path: 'fields[0].options.fields[0].options.collectionType', message: 'unknown collection "brands"' },
    ]);
  });

  it('refuses components nested more than one level', () => {
    const section = def('section', [{ name: 'grid', type: 'nestedComponent', options: { componentSlug: 'card-grid' } }]);
    const issues = checkSchemaSet(set({ components: [hero, quote, cardGrid, section] }));
    expect(issues).toEqual([
      {
        kind: 'components',
        slug: 'section',
        path: 'fields[0].options.componentSlug',
        message: 'component "card-grid" contains components itself; components nest at most 1 level',
      },
    ]);
  });

  it('refuses a component that contains itself, directly or through another component', () => {
    const selfish = def('selfish', [{ name: 'again', type: 'componentPicker', options: { allowedComponents: ['selfish'] } }]);
    const ping = def('ping', [{ name: 'pong', type: 'nestedComponent', options: { componentSlug: 'pong' } }]);
    const pong = def('pong', [{ name: 'ping', type: 'nestedComponent', options: { componentSlug: 'ping' } }]);
    const issues = checkSchemaSet(set({ components: [selfish, ping, pong] }));
    expect(issues).toEqual([
      { kind: 'components', slug: 'selfish', path: 'fields[0].options.allowedComponents[0]', message: 'component "selfish" cannot contain itself' },
      { kind: 'components', slug: 'ping', path: 'fields[0].options.componentSlug', message: 'component "ping" would contain itself through component "pong"' },
      { kind: 'components', slug: 'pong', path: 'fields[0].options.componentSlug', message: 'component "pong" would contain itself through component "ping"' },
    ]);
  });

  it('refuses duplicate slugs within a kind but not across kinds', () => {
    const issues = checkSchemaSet(
      set({
        pageTypes: [def('home', []), def('home', [])],
        collections: [def('home', [])],
        components: [hero, hero],
      }),
    );
    expect(issues).toEqual([
      { kind: 'pageTypes', slug: 'home', path: 'slug', message: 'duplicate page type slug "home"' },
      { kind: 'components', slug: 'hero', path: 'slug', message: 'duplicate component slug "hero"' },
    ]);
  });

  it('checks defaults of component fields against the components they name', () => {
    const issues = checkSchemaSet(
      set({
        components: [hero, quote],
        pageTypes: [
          def('landing', [
            { name: 'hero', type: 'nestedComponent', options: { componentSlug: 'hero' }, defaultValue: { title: 5 } },
            { name: 'blocks', type: 'componentPicker', defaultValue: [{ _type: 'quote', author: 'x' }, { _type: 'ghost' }] },
          ]),
        ],
      }),
    );
    expect(issues).toEqual([
      { kind: 'pageTypes', slug: 'landing', path: 'fields[0].defaultValue.title', message: 'must be a string' },
      { kind: 'pageTypes', slug: 'landing', path: 'fields[1].defaultValue[0].author', message: 'unknown field' },
      { kind: 'pageTypes', slug: 'landing', path: 'fields[1].defaultValue[1]._type', message: 'unknown component "ghost"' },
    ]);
  });
});
