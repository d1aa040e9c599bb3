import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
/** A schema with every one of the 16 field types, shared by the cms/client suites. */
export const everyFieldSchema = {
  components: [
    { slug: 'hero', name: 'Hero', fields: [{ name: 'heading', type: 'text', required: true }, { name: 'image', type: 'image' }] },
    { slug: 'quote', name: 'Quote', fields: [{ name: 'text', type: 'textarea' }, { name: 'by', type: 'text' }, { name: 'source', type: 'reference', options: { referenceType: 'page' } }] },
  ],
  collections: [
    { slug: 'makers', name: 'Makers', fields: [{ name: 'country', type: 'text' }] },
    { slug: 'products', name: 'Products', fields: [
      { name: 'title', type: 'text', required: true, localized: true },
      { name: 'price', type: 'number' },
      { name: 'inStock', type: 'boolean' },
      { name: 'category', type: 'select', options: { choices: [{ label: 'Lamps', value: 'lamps' }, { label: 'Chairs', value: 'chairs' }] } },
      { name: 'maker', type: 'reference', options: { collectionType: 'makers' } },
      { name: 'photo', type: 'media' },
    ] },
  ],
  pageTypes: [
    { slug: 'landing-page', name: 'Landing page', fields: [
      { name: 'title', type: 'text', required: true, localized: true },
      { name: 'summary', type: 'textarea' },
      { name: 'body', type: 'wysiwyg' },
      { name: 'cover', type: 'image' },
      { name: 'file', type: 'media' },
      { name: 'score', type: 'number' },
      { name: 'visible', type: 'boolean' },
      { name: 'day', type: 'date' },
      { name: 'at', type: 'datetime' },
      { name: 'accent', type: 'color' },
      { name: 'data', type: 'json' },
      { name: 'theme', type: 'select', label: 'Colour theme', options: { choices: [{ label: 'Light', value: 'light' }, { label: 'Dark', value: 'dark' }] } },
      { name: 'featured', type: 'reference', options: { collectionType: 'products' } },
      { name: 'picks', type: 'reference', options: { collectionType: 'products', multiple: true } },
      { name: 'parent', type: 'reference', options: { referenceType: 'page' } },
      { name: 'owner', type: 'reference', options: { referenceType: 'user' } },
      { name: 'post', type: 'reference', options: { referenceType: 'blogPost' } },
      { name: 'blocks', type: 'componentPicker', options: { allowedComponents: ['quote', 'hero'] } },
      { name: 'hero', type: 'nestedComponent', options: { componentSlug: 'hero' } },
      { name: 'faq', type: 'repeater', options: { fields: [{ name: 'question', type: 'text', required: true }, { name: 'answer', type: 'textarea' }] } },
    ] },
  ],
};

/** The same schema as `schema.push` input. */
export const everyFieldPush = {
  components: everyFieldSchema.components.map((definition) => ({ definition })),
  collections: everyFieldSchema.collections.map((definition) => ({ definition })),
  pageTypes: everyFieldSchema.pageTypes.map((definition) => ({ definition })),
};

/** Writes `everyFieldSchema` as a project's schema files (schemas/page-types, collections, components). */
export function writeEveryFieldSchemaFiles(projectDir: string): void {
  for (const [kind, folder] of [['pageTypes', 'page-types'], ['collections', 'collections'], ['components', 'components']] as const) {
    mkdirSync(join(projectDir, 'schemas', folder), { recursive: true });
    for (const def of everyFieldSchema[kind]) writeFileSync(join(projectDir, 'schemas', folder, `${def.slug}.json`), JSON.stringify(def, null, 2));
  }
}
