import { z } from 'zod';
import { defineOperation } from '../operation.js';
import type { SchemaField, TypeDefinition } from '../schema/index.js';
import { loadSchemaSet, type SchemaSet } from './operations.js';
import { pascalCase } from './typescript.js';

/*
 * The project's content types as JSON Schema (2020-12, the dialect of OpenAPI 3.1): the component
 * schemas of `cms openapi` (docs/openapi.md). The same walk over the field definitions as
 * `cms types` (typescript.ts), with the same names, and the same stability: same schema, same bytes.
 */

export type JsonSchema = { [key: string]: unknown };

const suffixes = { pageTypes: 'Page', collections: 'Item', components: 'Component' } as const;
type Kind = keyof typeof suffixes;
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const bySlug = (a: TypeDefinition, b: TypeDefinition) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

/** The shapes every content type's schema refers to, as the public API delivers them. */
const shared: Record<string, JsonSchema> = {
  CmsMedia: {
    type: 'object', description: 'A media value resolved by a public read.',
    required: ['_filename', '_url', '_mimeType'],
    properties: {
      _filename: { type: 'string' }, _url: { type: 'string' }, _mimeType: { type: 'string' },
      _width: { type: 'number' }, _height: { type: 'number' }, _altText: { type: 'string' },
    },
  },
  CmsMediaValue: {
    description: 'A media field: resolved `CmsMedia`, its URL (media=url), a bare id or `{ id }` as stored, or null.',
    anyOf: [ref('CmsMedia'), { type: 'string' }, { type: 'object', required: ['id'], properties: { id: { type: 'string' } } }, { type: 'null' }],
  },
  CmsReference: {
    description: 'A reference: the resolved target (an object with `_type` and `id`), a bare id or `{ _ref, _type }` as stored, or null when the target is gone.',
    anyOf: [{ type: 'object', properties: { _type: { type: 'string' }, id: { type: 'string' }, _ref: { type: 'string' } } }, { type: 'string' }, { type: 'null' }],
  },
  CmsSeo: {
    type: 'object',
    properties: {
      ...Object.fromEntries(['metaTitle', 'metaDescription', 'metaRobots', 'ogTitle', 'ogDescription', 'canonicalUrl'].map((k) => [k, { type: ['string', 'null'] }])),
      ogImage: { anyOf: [ref('CmsMedia'), { type: 'string' }, { type: 'null' }] },
    },
  },
};

function names(set: SchemaSet): (kind: Kind, slug: string) => string {
  const byKind = new Map<string, string>();
  const taken = new Set<string>(Object.keys(shared));
  for (const kind of ['components', 'pageTypes', 'collections'] as const) {
    for (const def of set[kind]) {
      const base = `${pascalCase(def.slug)}${suffixes[kind]}`;
      let name = base;
      for (let n = 2; taken.has(name) || taken.has(`${name}Fields`); n++) name = `${base}_${n}`;
      taken.add(name);
      byKind.set(`${kind}/${def.slug}`, name);
    }
  }
  return (kind, slug) => byKind.get(`${kind}/${slug}`) ?? `${pascalCase(slug)}${suffixes[kind]}`;
}

function fieldSchema(field: SchemaField, set: SchemaSet, name: (kind: Kind, slug: string) => string): JsonSchema {
  switch (field.type) {
    case 'text': case 'textarea': case 'wysiwyg': case 'color':
      return { type: 'string' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'json':
      return {};
    case 'image': case 'media':
      return ref('CmsMediaValue');
    case 'select': {
      const values = [...new Set((field.options?.choices ?? []).map((c) => c.value))];
      return values.length ? { type: 'string', enum: values } : { type: 'string' };
    }
    case 'reference':
      return field.options.multiple ? { type: 'array', items: ref('CmsReference') } : ref('CmsReference');
    case 'nestedComponent':
      return set.components.some((c) => c.slug === field.options.componentSlug) ? ref(name('components', field.options.componentSlug)) : {};
    case 'componentPicker': {
      const allowed = field.options?.allowedComponents;
      const members = set.components.filter((c) => !allowed || allowed.includes(c.slug));
      return { type: 'array', items: { oneOf: members.map((c) => ref(name('components', c.slug))) } };
    }
    case 'repeater':
      return { type: 'array', items: fieldsObject(field.options.fields, set, name) };
  }
}

function fieldsObject(fields: SchemaField[], set: SchemaSet, name: (kind: Kind, slug: string) => string, extra: Record<string, JsonSchema> = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = { ...extra };
  for (const f of fields) {
    const schema = fieldSchema(f, set, name);
    const described = f.label ? { ...schema, description: `${f.label} (${f.type})` } : schema;
    properties[f.name] = f.required ? described : { anyOf: [schema, { type: 'null' }], description: described.description };
  }
  const required = [...Object.keys(extra), ...fields.filter((f) => f.required).map((f) => f.name)];
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/** An entry (page or item) as the public API delivers it. */
function entrySchema(def: TypeDefinition, fieldsName: string, page: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    id: { type: 'string' }, name: { type: 'string' }, slug: { type: 'string' }, type: { const: def.slug },
    fields: ref(fieldsName),
    ...(page ? { seo: ref('CmsSeo') } : {}),
    publishedAt: { type: ['string', 'null'], format: 'date-time' }, updatedAt: { type: 'string', format: 'date-time' },
    _fallbacks: { type: 'array', items: { type: 'string' }, description: 'With `locale` only: what came from another locale.' },
  };
  return { type: 'object', description: `${def.name} (\`${def.slug}\`)`, required: ['id', 'name', 'slug', 'type', 'fields'], properties };
}

/** Every content type as a named JSON Schema, for `#/components/schemas`; `pages` and `items` name the entry schemas. */
export function generateJsonSchemas(input: SchemaSet): { schemas: Record<string, JsonSchema>; pages: string[]; items: string[] } {
  const set: SchemaSet = {
    pageTypes: [...input.pageTypes].sort(bySlug), collections: [...input.collections].sort(bySlug), components: [...input.components].sort(bySlug),
  };
  const name = names(set);
  const out: Record<string, JsonSchema> = { ...shared };
  const entries: Record<'pageTypes' | 'collections', string[]> = { pageTypes: [], collections: [] };
  for (const c of set.components) out[name('components', c.slug)] = { ...fieldsObject(c.fields, set, name, { _type: { const: c.slug } }), description: `${c.name} (\`${c.slug}\`)` };
  for (const [kind, page] of [['pageTypes', true], ['collections', false]] as const) {
    for (const def of set[kind]) {
      const n = name(kind, def.slug);
      out[`${n}Fields`] = { ...fieldsObject(def.fields, set, name), description: `Fields of ${def.name} (\`${def.slug}\`)` };
      out[n] = entrySchema(def, `${n}Fields`, page);
      entries[kind].push(n);
    }
  }
  return { schemas: out, pages: entries.pageTypes, items: entries.collections };
}

export const schemaJsonSchema = defineOperation({
  name: 'schema.jsonSchema',
  input: z.strictObject({}),
  access: { role: 'viewer', key: 'read', preview: true },
  write: false,
  async run(ctx) {
    return generateJsonSchemas(await loadSchemaSet(ctx.db, ctx.project.id));
  },
});
