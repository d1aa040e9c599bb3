import { z } from 'zod';
import { defineOperation } from '../operation.js';
import type { SchemaField, TypeDefinition } from '../schema/index.js';
import { loadSchemaSet, type SchemaSet } from './operations.js';

/*
 * `cms types`: TypeScript declarations of a project's page types, collections and components as
 * the public API delivers them (docs/client.md). Pure text from the schema set: the same schema
 * gives the same bytes (types and choices keep their sorted or authored order, nothing depends on
 * time or ids).
 */

/** `landing-page` → `LandingPage`; a slug starting with a digit gets a leading underscore. */
export function pascalCase(slug: string): string {
  const name = slug.split('-').filter(Boolean).map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

const suffixes = { pageTypes: 'Page', collections: 'Item', components: 'Component' } as const;
type Kind = keyof typeof suffixes;

/**
 * Each type's declaration name: the slug in PascalCase and the kind (`LandingPagePage`,
 * `ProductsItem`, `HeroComponent`). Slugs that give the same name (`a-1` and `a1`) are told
 * apart by `_2`, `_3`… in slug order, so names stay stable.
 */
function declarationNames(set: SchemaSet): (kind: Kind, slug: string) => string {
  const byKind = new Map<string, string>();
  // The file's own declarations are taken (a page type `cms` would be `CmsPage`).
  const taken = new Set<string>(ownDeclarations());
  for (const kind of ['components', 'pageTypes', 'collections'] as const) {
    for (const def of set[kind]) {
      const base = `${pascalCase(def.slug)}${suffixes[kind]}`;
      // A name is taken with its `…Fields` interface (a slug `cms-page-fields` meets `CmsPage`'s).
      let name = base;
      for (let n = 2; taken.has(name) || taken.has(`${name}Fields`); n++) name = `${base}_${n}`;
      taken.add(name);
      taken.add(`${name}Fields`);
      byKind.set(`${kind}/${def.slug}`, name);
    }
  }
  return (kind, slug) => byKind.get(`${kind}/${slug}`) ?? `${pascalCase(slug)}${suffixes[kind]}`;
}

/** The names the file declares whatever the schema: the preamble's and `CmsTypes`. */
function ownDeclarations(): string[] {
  return [...[...preamble.matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]!), 'CmsTypes'];
}

/** A string literal type: JSON's quoting is valid TypeScript for any string. */
const literal = (s: string) => JSON.stringify(s);

const union = (members: string[]): string => (members.length === 0 ? 'never' : members.join(' | '));

interface Context {
  set: SchemaSet;
  indent: string;
  /** Whether a type's fields depend on the reference level (it holds references, itself or in its components). */
  usesLevel: (kind: 'collections' | 'components', slug: string) => boolean;
  name: (kind: Kind, slug: string) => string;
}

/** Which types need the level parameter: only those are declared with it (no unused type parameters). */
function levelUsers(set: SchemaSet): Context['usesLevel'] {
  const memo = new Map<string, boolean>();
  const fieldsUse = (fields: SchemaField[], seen: Set<string>): boolean => fields.some((f) => {
    if (f.type === 'reference') return true;
    if (f.type === 'repeater') return fieldsUse(f.options.fields, seen);
    if (f.type === 'nestedComponent') return componentUses(f.options.componentSlug, seen);
    if (f.type === 'componentPicker') {
      const allowed = f.options?.allowedComponents;
      return set.components.some((c) => (!allowed || allowed.includes(c.slug)) && componentUses(c.slug, seen));
    }
    return false;
  });
  const componentUses = (slug: string, seen: Set<string>): boolean => {
    const known = memo.get(`components/${slug}`);
    if (known !== undefined) return known;
    const def = set.components.find((c) => c.slug === slug);
    if (!def || seen.has(slug)) return false;
    const uses = fieldsUse(def.fields, new Set([...seen, slug]));
    memo.set(`components/${slug}`, uses);
    return uses;
  };
  return (kind, slug) => {
    if (kind === 'components') return componentUses(slug, new Set());
    const def = set.collections.find((c) => c.slug === slug);
    return def ? fieldsUse(def.fields, new Set()) : false;
  };
}

/** A type's name with its level argument, when it takes one. */
const withLevel = (name: string, uses: boolean, level: string) => (uses ? `${name}<${level}>` : name);

/** The delivered type of one field; `L` is the reference level in scope (resolved at the top, stored inside a resolved item). */
function fieldType(field: SchemaField, cx: Context): string {
  switch (field.type) {
    case 'text': case 'textarea': case 'wysiwyg': case 'date': case 'datetime': case 'color':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'json':
      return 'CmsJson';
    case 'image': case 'media':
      return 'CmsMediaValue';
    case 'select': {
      const values = [...new Set((field.options?.choices ?? []).map((c) => c.value))];
      return values.length ? union(values.map(literal)) : 'string';
    }
    case 'reference': {
      const o = field.options;
      const target = referenceTarget(o.referenceType ?? 'collectionItem', o.collectionType, cx);
      return o.multiple ? `CmsReferenceList<L, ${target}>` : `CmsReference<L, ${target}>`;
    }
    case 'nestedComponent':
      return cx.set.components.some((c) => c.slug === field.options.componentSlug)
        ? withLevel(cx.name('components', field.options.componentSlug), cx.usesLevel('components', field.options.componentSlug), 'L') : 'never';
    case 'componentPicker': {
      const allowed = field.options?.allowedComponents;
      const slugs = cx.set.components.map((c) => c.slug).filter((s) => !allowed || allowed.includes(s));
      const members = slugs.map((s) => withLevel(cx.name('components', s), cx.usesLevel('components', s), 'L'));
      return `Array<${union(members)}>`;
    }
    case 'repeater': {
      return `Array<{\n${fieldLines(field.options.fields, cx)}${cx.indent}}>`;
    }
  }
}

/** The resolved shape of a reference's target. */
function referenceTarget(kind: string, collection: string | undefined, cx: Context): string {
  if (kind === 'page') return 'CmsPageRef';
  if (kind === 'blogPost') return 'CmsBlogPostRef';
  if (kind === 'user') return 'CmsUserRef';
  if (collection && cx.set.collections.some((c) => c.slug === collection)) {
    return `CmsItemRef<${literal(collection)}, ${withLevel(`${cx.name('collections', collection)}Fields`, cx.usesLevel('collections', collection), "'stored'")}>`;
  }
  return 'CmsItemRef<string, Record<string, unknown>>';
}

function fieldLines(fields: SchemaField[], cx: Context): string {
  return fields.map((f) => {
    const text = f.label && f.label !== f.name ? `${f.label.replace(/\s+/g, ' ').replace(/\*\//g, '* /')} (${f.type})` : f.type;
    const label = `${cx.indent}  /** ${text} */\n`;
    const type = fieldType(f, { ...cx, indent: cx.indent + '  ' });
    return `${label}${cx.indent}  ${f.name}${f.required ? '' : '?'}: ${f.required ? type : `${type} | null`};\n`;
  }).join('');
}

function fieldsInterface(name: string, def: TypeDefinition, cx: Context, usesLevel: boolean, extra = ''): string {
  return `/** Fields of ${def.name} (\`${def.slug}\`). */\n` +
    `export interface ${withLevel(name, usesLevel, "L extends CmsLevel = 'resolved'")} {\n${extra}${fieldLines(def.fields, { ...cx, indent: '' })}}\n`;
}

const localizedUnion = (def: TypeDefinition) => union(def.fields.filter((f) => f.localized).map((f) => literal(f.name)));

const preamble = `// Generated by \`cms types\` from the project's schema. Do not edit: run \`cms types\` again after a
// schema change. Shapes are those of the public API (/api/v1); docs/client.md explains them.
/* eslint-disable */

/** Any JSON value (a \`json\` field). */
export type CmsJson = string | number | boolean | null | CmsJson[] | { [key: string]: CmsJson };

/** References resolved one level: at the top (\`resolved\`), inside a resolved item (\`stored\`). */
export type CmsLevel = 'resolved' | 'stored';

/** A media value inside content: \`{ _media }\` resolved (or null when gone); a bare id or \`{ id }\` as stored. */
export interface CmsMedia {
  _filename: string;
  _url: string;
  _mimeType: string;
  _width?: number;
  _height?: number;
  _altText?: string;
}
/** With \`media: 'url'\` the client turns every CmsMedia into its URL string. */
export type CmsMediaValue = CmsMedia | string | { id: string } | null;

/** A reference as stored (delivered so inside a resolved item, one level down). */
export type CmsStoredRef = { _ref: string; _type: string } | string;
export interface CmsPageRef { _type: 'page'; id: string; name: string; slug: string; type: string; publishedAt: string | null }
export interface CmsBlogPostRef { _type: 'blogPost'; id: string; title: string; slug: string; publishedAt: string | null }
export interface CmsUserRef { _type: 'user'; id: string; name: string }
/** A resolved collection item: \`_type\` is its collection's slug (left out with refTypes=false). */
export type CmsItemRef<T extends string, F> = { _type: T; id: string; name: string; slug: string } & F;
/** One reference: the target (null when deleted or unpublished), or a bare id as stored. */
export type CmsReference<L extends CmsLevel, T> = L extends 'resolved' ? T | string | null : CmsStoredRef;
/** Several references: gone targets are left out. */
export type CmsReferenceList<L extends CmsLevel, T> = L extends 'resolved' ? Array<T | string> : CmsStoredRef[];

export interface CmsSeo {
  metaTitle: string | null;
  metaDescription: string | null;
  metaRobots: string | null;
  ogTitle: string | null;
  ogDescription: string | null;
  ogImage: CmsMedia | string | null;
  canonicalUrl: string | null;
}
export interface CmsPagination { total: number; page: number; limit: number; totalPages: number }
export interface CmsRedirect { from: string; to: string; permanent: true }

/** A page as \`GET /api/v1/pages\` delivers it. */
export interface CmsPage<T extends string, F> {
  id: string;
  name: string;
  slug: string;
  type: T;
  fields: F;
  seo: CmsSeo;
  publishedAt: string | null;
  updatedAt: string;
  /** With \`locale\` only: what came from another locale. */
  _fallbacks?: string[];
}
/** A collection item as \`GET /api/v1/collections/:type\` delivers it. */
export interface CmsItem<T extends string, F> {
  id: string;
  name: string;
  slug: string;
  type: T;
  fields: F;
  publishedAt: string | null;
  updatedAt: string;
  /** With \`locale\` only: what came from another locale. */
  _fallbacks?: string[];
}
/** A list answer; \`locale\` is there when the read asked for one. */
export interface CmsList<E> { data: E[]; pagination: CmsPagination; locale?: string }
/** A single answer; \`redirect\` is filled when an old slug was asked for. */
export interface CmsSingle<E> { data: E; redirect: CmsRedirect | null; locale?: string }
`;

/** The declarations for a schema set: stable, formatted, self-contained. */
export function generateTypeScript(set: SchemaSet): string {
  const sorted: SchemaSet = {
    pageTypes: [...set.pageTypes].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0)),
    collections: [...set.collections].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0)),
    components: [...set.components].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0)),
  };
  const cx: Context = { set: sorted, indent: '', usesLevel: levelUsers(sorted), name: declarationNames(sorted) };
  const out: string[] = [preamble];

  out.push('// Components (each instance carries `_type`, its slug).\n');
  for (const c of sorted.components) {
    out.push(fieldsInterface(cx.name('components', c.slug), c, cx, cx.usesLevel('components', c.slug), `  _type: ${literal(c.slug)};\n`));
  }
  out.push('// Page types.\n');
  for (const p of sorted.pageTypes) {
    // A page type is never a reference's target: its fields need a level only when they hold references.
    const pageUses = levelUsers({ ...sorted, collections: [p] })('collections', p.slug);
    out.push(fieldsInterface(`${cx.name('pageTypes', p.slug)}Fields`, p, cx, pageUses));
    out.push(`export type ${cx.name('pageTypes', p.slug)} = CmsPage<${literal(p.slug)}, ${cx.name('pageTypes', p.slug)}Fields>;\n`);
  }
  out.push('// Collections.\n');
  for (const c of sorted.collections) {
    out.push(fieldsInterface(`${cx.name('collections', c.slug)}Fields`, c, cx, cx.usesLevel('collections', c.slug)));
    out.push(`export type ${cx.name('collections', c.slug)} = CmsItem<${literal(c.slug)}, ${cx.name('collections', c.slug)}Fields>;\n`);
  }
  const entry = (def: TypeDefinition, fields: string) =>
    `    ${literal(def.slug)}: { fields: ${fields}; localized: ${localizedUnion(def)} };\n`;
  out.push('/** Every page type and collection: the type parameter of `createClient<CmsTypes>()` (cms/client). */\n' +
    'export interface CmsTypes {\n' +
    `  pageTypes: {\n${sorted.pageTypes.map((p) => entry(p, `${cx.name('pageTypes', p.slug)}Fields`)).join('')}  };\n` +
    `  collections: {\n${sorted.collections.map((c) => entry(c, `${cx.name('collections', c.slug)}Fields`)).join('')}  };\n` +
    '}\n');
  return out.join('\n');
}

export const schemaTypescript = defineOperation({
  name: 'schema.typescript',
  input: z.strictObject({}),
  access: { role: 'viewer' },
  write: false,
  async run(ctx) {
    const text = generateTypeScript(await loadSchemaSet(ctx.db, ctx.project.id));
    return { text };
  },
});
