// From what was read to what will be written: our page types, collections and components (by
// inference over every sample), and how they meet the project's existing schema. Pure.

import { humanize, makeUnique, toSlug } from './names.js';
import { inferSchemas, type FieldPlan, type InferenceResult, type InferredComponent, type SampleGroup } from './infer.js';
import type { SourceData, SourcePage } from './source.js';
import { fieldListOf, stringListOf, type ImportWarning, type SchemaField } from './types.js';

export type SchemaKind = 'components' | 'pageTypes' | 'collections';

export interface PlannedType {
  kind: SchemaKind;
  slug: string;
  name: string;
  fields: SchemaField[];
  /** Where it came from: a page type, `single page <slug>`, a collection key, a component name. */
  source: string;
  /** Top-level plan for the converter (none for components: theirs live in `components`). */
  plan: FieldPlan[];
}

export interface ImportPlan {
  pageTypes: PlannedType[];
  collections: PlannedType[];
  components: PlannedType[];
  /** Inferred components, as the converter wants them. */
  inferredComponents: InferredComponent[];
  pageTypeOf(page: SourcePage): PlannedType | undefined;
  collectionOf(sourceKey: string): PlannedType | undefined;
  warnings: ImportWarning[];
}

export interface PlanOptions {
  mediaHosts?: readonly string[];
}

const pageGroup = (slug: string) => `page type ${slug}`;
const collectionGroup = (key: string) => `collection ${key}`;

/** Infers every schema at once (components are shared between page types). */
export function planImport(source: SourceData, options: PlanOptions = {}): ImportPlan {
  // Slugs: page types keep theirs (made valid), single pages get a page type named after their slug.
  const typeSlugs = new Set<string>();
  const slugOfType = new Map<string, string>();
  const typesInOrder: string[] = [];
  for (const page of source.pages) {
    if (page.page_type !== null && !slugOfType.has(page.page_type)) {
      slugOfType.set(page.page_type, makeUnique(toSlug(page.page_type, 'page-type'), typeSlugs, '-'));
      typesInOrder.push(page.page_type);
    }
  }
  const slugOfSingle = new Map<string, string>();
  for (const page of source.pages) {
    if (page.page_type === null && !slugOfSingle.has(page.slug)) {
      slugOfSingle.set(page.slug, makeUnique(toSlug(page.slug, 'page'), typeSlugs, '-'));
    }
  }
  const collectionSlugs = new Set<string>();
  const slugOfCollection = new Map<string, string>();
  for (const key of source.collections.keys()) slugOfCollection.set(key, makeUnique(toSlug(key, 'collection'), collectionSlugs, '-'));

  const collectionOfId = new Map<string, string>();
  for (const [key, items] of source.collections) for (const item of items) collectionOfId.set(String(item.meta.id), key);

  // Other locales' values are samples too (a field empty in one locale may be filled in another).
  const variants = source.variants ?? [];
  const groups: SampleGroup[] = [];
  for (const type of typesInOrder) {
    const samples = [source.pages, ...variants.map((v) => v.pages)].flatMap((list) => list.filter((p) => p.page_type === type).flatMap((p) => [p.fields, ...(p.draftFields ? [p.draftFields] : [])]));
    groups.push({ id: pageGroup(slugOfType.get(type)!), kind: 'page', samples });
  }
  for (const page of source.pages) {
    if (page.page_type !== null) continue;
    const samples = [page.fields, ...(page.draftFields ? [page.draftFields] : []), ...variants.flatMap((v) => v.pages.filter((p) => p.page_type === null && p.slug === page.slug).map((p) => p.fields))];
    groups.push({ id: pageGroup(slugOfSingle.get(page.slug)!), kind: 'page', samples });
  }
  for (const [key, items] of source.collections) {
    const drafts = items.flatMap((i) => source.itemDrafts.edits.get(String(i.meta.id)) ?? []);
    const samples = [...items, ...drafts, ...variants.flatMap((v) => v.collections.get(key) ?? [])];
    groups.push({ id: collectionGroup(key), kind: 'collection', samples });
  }

  const inference: InferenceResult = inferSchemas(groups, {
    mediaHosts: options.mediaHosts ?? [],
    collectionOfItemId: (id) => collectionOfId.get(String(id)),
    collectionSlugFor: (key) => slugOfCollection.get(key) ?? toSlug(key),
    pageTypeSlugFor: (type) => slugOfType.get(type) ?? toSlug(type),
  });

  const schema = (group: string) => inference.schemas[group] ?? { fields: [], plan: [], mapping: {} };
  const pageTypes: PlannedType[] = [];
  const byType = new Map<string, PlannedType>();
  for (const type of typesInOrder) {
    const slug = slugOfType.get(type)!;
    const s = schema(pageGroup(slug));
    const planned: PlannedType = { kind: 'pageTypes', slug, name: humanize(type), fields: s.fields, plan: s.plan, source: type };
    pageTypes.push(planned);
    byType.set(`type:${type}`, planned);
  }
  for (const page of source.pages) {
    if (page.page_type !== null) continue;
    const slug = slugOfSingle.get(page.slug)!;
    if (byType.has(`single:${page.slug}`)) continue;
    const s = schema(pageGroup(slug));
    const planned: PlannedType = { kind: 'pageTypes', slug, name: page.name, fields: s.fields, plan: s.plan, source: `single page ${page.slug}` };
    pageTypes.push(planned);
    byType.set(`single:${page.slug}`, planned);
  }
  const collections: PlannedType[] = [];
  const byKey = new Map<string, PlannedType>();
  for (const key of source.collections.keys()) {
    const s = schema(collectionGroup(key));
    const planned: PlannedType = { kind: 'collections', slug: slugOfCollection.get(key)!, name: humanize(key), fields: s.fields, plan: s.plan, source: key };
    collections.push(planned);
    byKey.set(key, planned);
  }
  const components: PlannedType[] = inference.components.map((c) => ({
    kind: 'components', slug: c.slug, name: c.name, fields: c.fields, plan: c.plan, source: c.sourceNames.join(', '),
  }));
  return {
    pageTypes,
    collections,
    components,
    inferredComponents: inference.components,
    pageTypeOf: (page) => byType.get(page.page_type === null ? `single:${page.slug}` : `type:${page.page_type}`),
    collectionOf: (key) => byKey.get(key),
    warnings: inference.warnings,
  };
}

// ------------------------------------------------------------------------------------------------
// Meeting the project's schema. A type with the same slug is reused: fields the import needs and
// it lacks are added, nothing is removed or retyped. A field of another type that holds strings
// as the imported one does (text, textarea, wysiwyg, select) takes the values as they are, each
// still checked against the field (a select's choices, a maximum length) as the entry is written.
// Any other field that exists with another type (or points elsewhere) cannot hold the imported
// values: that is a conflict, and the import stops before writing anything.

export interface ExistingType {
  slug: string;
  name: string;
  fields: SchemaField[];
}

export interface ExistingSchema {
  pageTypes: ExistingType[];
  collections: ExistingType[];
  components: ExistingType[];
}

export interface MergeResult {
  /** Every type the import writes, whole (created, or existing with fields added). */
  write: Record<SchemaKind, ExistingType[]>;
  created: Array<{ kind: SchemaKind; slug: string }>;
  extended: Array<{ kind: SchemaKind; slug: string; fields: string[] }>;
  reused: Array<{ kind: SchemaKind; slug: string }>;
  conflicts: string[];
  /** Fields of the project kept with another string type than the import's (logged as warnings). */
  adapted: string[];
}

/** What meeting the project's fields found: conflicts stop the import, adaptations are said. */
interface MergeFindings { conflicts: string[]; adapted: string[] }

/** Field types whose values are strings: each holds what the others hold. */
const stringTypes: ReadonlySet<string> = new Set(['text', 'textarea', 'wysiwyg']);

type Options = Record<string, unknown>;
const optionsOf = (f: SchemaField): Options => f.options ?? {};

function mergeField(old: SchemaField, wanted: SchemaField, path: string, found: MergeFindings): SchemaField {
  const { conflicts } = found;
  // A media field takes images too (an earlier run may have found other files in it).
  if (old.type === 'media' && wanted.type === 'image') return old;
  if (old.type !== wanted.type && stringTypes.has(wanted.type) && (stringTypes.has(old.type) || old.type === 'select')) {
    found.adapted.push(`${path}: the project's ${old.type} field takes the imported ${wanted.type} values as they are${old.type === 'select' ? ' (a value that is not one of its choices is refused with its entry)' : ''}`);
    return old;
  }
  if (old.type !== wanted.type) {
    conflicts.push(`${path}: the project has a ${old.type} field, the import needs ${wanted.type}`);
    return old;
  }
  const o = optionsOf(old);
  const w = optionsOf(wanted);
  switch (wanted.type) {
    case 'reference': {
      const same = (k: string, fallback?: unknown) => (o[k] ?? fallback) === (w[k] ?? fallback);
      const scopeOk = o.pageType === undefined || o.pageType === w.pageType;
      if (!same('referenceType', 'collectionItem') || !same('collectionType') || !same('multiple', false) || !scopeOk) {
        conflicts.push(`${path}: the project's reference field points elsewhere (${JSON.stringify(o)}), the import needs ${JSON.stringify(w)}`);
      }
      return old;
    }
    case 'nestedComponent':
      if (o.componentSlug !== w.componentSlug) conflicts.push(`${path}: the project embeds component "${String(o.componentSlug)}", the import needs "${String(w.componentSlug)}"`);
      return old;
    case 'componentPicker': {
      const allowed = o.allowedComponents;
      if (!Array.isArray(allowed)) return old;
      const more = stringListOf(w.allowedComponents).filter((c) => !allowed.includes(c));
      return more.length ? { ...old, options: { ...o, allowedComponents: [...allowed, ...more] } } : old;
    }
    case 'repeater': {
      const fields = mergeFields(fieldListOf(o.fields), fieldListOf(w.fields), `${path}[]`, found, []);
      return { ...old, options: { ...o, fields } };
    }
    default:
      return old;
  }
}

function mergeFields(old: SchemaField[], wanted: SchemaField[], path: string, found: MergeFindings, added: string[]): SchemaField[] {
  const out = [...old];
  for (const field of wanted) {
    const at = out.findIndex((f) => f.name === field.name);
    if (at < 0) {
      out.push(field);
      added.push(field.name);
    } else {
      const merged = mergeField(out[at]!, field, `${path}.${field.name}`, found);
      // A field the import finds localized becomes so (its stored values stay the default locale's).
      out[at] = field.localized === true && merged.localized !== true ? { ...merged, localized: true } : merged;
    }
  }
  return out;
}

export function mergeWithExisting(existing: ExistingSchema, planned: Pick<ImportPlan, SchemaKind>): MergeResult {
  const result: MergeResult = { write: { components: [], pageTypes: [], collections: [] }, created: [], extended: [], reused: [], conflicts: [], adapted: [] };
  for (const kind of ['components', 'collections', 'pageTypes'] as const) {
    const have = new Map(existing[kind].map((t) => [t.slug, t]));
    for (const type of planned[kind]) {
      const old = have.get(type.slug);
      if (!old) {
        result.write[kind].push({ slug: type.slug, name: type.name, fields: type.fields });
        result.created.push({ kind, slug: type.slug });
        continue;
      }
      const added: string[] = [];
      const fields = mergeFields(old.fields, type.fields, `${kind}/${type.slug}`, result, added);
      const changed = JSON.stringify(fields) !== JSON.stringify(old.fields);
      result.write[kind].push({ slug: old.slug, name: old.name, fields });
      if (changed) result.extended.push({ kind, slug: type.slug, fields: added });
      else result.reused.push({ kind, slug: type.slug });
    }
  }
  return result;
}
