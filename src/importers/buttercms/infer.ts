// Schema inference for ButterCMS content.
// ButterCMS's read API exposes no field metadata, so every page type, collection and
// component schema is reconstructed from delivered values: each sample value is classified on its
// own, then all observations of a field are united (docs/migrating-from-buttercms.md).

import { humanize, makeUnique, toFieldName, toKebabCase, toSlug } from './names.js';
import type { ComponentDefinition, ImportWarning, ReferenceKind, SchemaField } from './types.js';

export interface InferOptions {
  /**
   * Extra media hosts, as `host`, `host:port` or a URL. cdn.buttercms.com and *.cloudfront.net are
   * always media hosts; self-hosted or proxied accounts (and the test fake) need this.
   */
  mediaHosts?: readonly string[];
  /** Source collection key of a collection item id; embedded items carry only `meta.id`. */
  collectionOfItemId?: (id: number | string) => string | null | undefined;
  /** Our collection slug for a source collection key (default: `toSlug`). */
  collectionSlugFor?: (sourceKey: string) => string;
  /** Our page-type slug for a source page type (default: `toSlug`). */
  pageTypeSlugFor?: (sourcePageType: string) => string;
}

// ------------------------------------------------------------------------------------------------
// Value detection. Exported because the converter and the importer must recognise the same shapes
// the inference did.

const CLOSING_TAG = /<\/[a-zA-Z][a-zA-Z0-9-]*\s*>/;
const COMMON_TAG =
  /<(?:p|br|hr|strong|b|em|i|u|s|del|a|span|div|img|ul|ol|li|h[1-6]|blockquote|pre|code|table|tr|td|th|figure|iframe|sup|sub)(?:\s[^<>]*)?\/?>/i;
const DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const FILE_PATH =
  /\.(?:png|jpe?g|gif|webp|svg|avif|bmp|tiff?|ico|heic|pdf|mp4|m4v|mov|webm|mp3|wav|ogg|zip|docx?|xlsx?|pptx?|csv)$/i;
const BUILTIN_MEDIA_HOST = /^(?:cdn\.buttercms\.com|[a-z0-9-]+\.cloudfront\.net)$/;
const CONTENT_URI = /^(?:https?:\/\/[^/]+)?\/v2\/content\/\?keys=/;
const CONTENT_URI_PARTS = /^(?:https?:\/\/[^/]+)?\/v2\/content\/\?keys=([^[&,]+)(?:\[_id=([^\]]+)\])?/;
// Not documented by ButterCMS; this is the form our fake server emits for pages past `levels`.
const PAGE_URI = /^(?:https?:\/\/[^/]+)?\/v2\/pages\/([^/?]+)\/([^/?]+)\/?(?:\?.*)?$/;

export function isHtml(value: string): boolean {
  return (value.trimStart().startsWith('<') && CLOSING_TAG.test(value)) || COMMON_TAG.test(value);
}

export function isDateString(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [month = 0, day = 0, hour = 0, minute = 0, second = 0] = [m[2], m[3], m[4], m[5], m[6]].map((part) =>
    part === undefined ? 0 : Number(part),
  );
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour < 24 && minute < 60 && second < 60;
}

function normaliseHost(entry: string): string {
  const trimmed = entry.trim().toLowerCase();
  if (!trimmed.includes('://')) return trimmed.replace(/\/.*$/, '');
  try {
    return new URL(trimmed).host;
  } catch {
    return trimmed;
  }
}

function httpUrl(value: string): URL | null {
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

function onMediaHost(url: URL, mediaHosts: readonly string[]): boolean {
  if (BUILTIN_MEDIA_HOST.test(url.hostname.toLowerCase())) return true;
  const host = url.host.toLowerCase();
  const hostname = url.hostname.toLowerCase();
  return mediaHosts.some((entry) => {
    const wanted = normaliseHost(entry);
    // An entry with a port must match the port too; a bare host name matches any port.
    return wanted === host || (!wanted.includes(':') && wanted === hostname);
  });
}

/** A URL on a host known to serve the source's media (built in, `--media-hosts`, the API's own). */
export function isOnMediaHost(value: string, mediaHosts: readonly string[] = []): boolean {
  const url = httpUrl(value);
  return url !== null && onMediaHost(url, mediaHosts);
}

/** A media file: a URL on a media host, or any http(s) URL whose path ends in a file extension. */
export function isMediaUrl(value: string, mediaHosts: readonly string[] = []): boolean {
  const url = httpUrl(value);
  return url !== null && (onMediaHost(url, mediaHosts) || FILE_PATH.test(url.pathname));
}

export function isReferenceUri(value: string): boolean {
  return CONTENT_URI.test(value) || PAGE_URI.test(value);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An embedded collection item: its fields plus `meta: { id }`. */
export function isCollectionItemObject(
  value: unknown,
): value is Record<string, unknown> & { meta: { id: number | string } } {
  if (!isPlainObject(value) || !isPlainObject(value.meta)) return false;
  const id = value.meta.id;
  return typeof id === 'number' || (typeof id === 'string' && id !== '');
}

/** An embedded page: `slug` + `page_type` (string or null) + `fields`. */
export function isPageObject(
  value: unknown,
): value is Record<string, unknown> & { slug: string; page_type: string | null; fields: Record<string, unknown> } {
  return (
    isPlainObject(value) &&
    typeof value.slug === 'string' &&
    'page_type' in value &&
    (typeof value.page_type === 'string' || value.page_type === null) &&
    isPlainObject(value.fields)
  );
}

/** A component-picker element, as ButterCMS delivers it, has exactly `type` and `fields`. */
export function isPickerInstance(value: unknown): value is { type: string; fields: Record<string, unknown> } {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 2 && typeof value.type === 'string' && isPlainObject(value.fields);
}

/** `{ url, alt }`, the media shape under `alt_media_text=1`. */
export function isMediaWithAlt(value: unknown, mediaHosts: readonly string[] = []): value is { url: string; alt?: unknown } {
  if (!isPlainObject(value) || typeof value.url !== 'string') return false;
  return Object.keys(value).every((k) => k === 'url' || k === 'alt') && isMediaUrl(value.url, mediaHosts);
}

export interface ReferenceTarget {
  kind: ReferenceKind;
  /** Collection item id (as a string) or page slug: what identifies the entity across the account. */
  sourceKey: string;
  /** Source collection key, when the value says it (URI form). */
  collection?: string;
  /** Source page type; null for a single page, undefined when the value does not say. */
  pageType?: string | null;
}

/** Recognises one reference value in any of its delivered forms; null when it is not one. */
export function referenceTargetOf(value: unknown): ReferenceTarget | null {
  if (typeof value === 'string') {
    const content = CONTENT_URI_PARTS.exec(value);
    if (content?.[1] !== undefined) {
      const collection = decodeURIComponent(content[1]);
      return { kind: 'collectionItem', sourceKey: content[2] ?? '', collection };
    }
    const page = PAGE_URI.exec(value);
    if (page?.[1] !== undefined && page[2] !== undefined) {
      const pageType = decodeURIComponent(page[1]);
      return { kind: 'page', sourceKey: decodeURIComponent(page[2]), pageType: pageType === '*' ? undefined : pageType };
    }
    return null;
  }
  if (isCollectionItemObject(value)) return { kind: 'collectionItem', sourceKey: String(value.meta.id) };
  if (isPageObject(value)) return { kind: 'page', sourceKey: value.slug, pageType: value.page_type };
  return null;
}

/** A collection item's own fields: everything but its `meta`. */
export function fieldsOfItem(item: Record<string, unknown>): Record<string, unknown> {
  const { meta: _meta, ...fields } = item;
  return fields;
}

// ------------------------------------------------------------------------------------------------
// Plans: the inferred schema plus what the converter needs (source keys, component slugs).

export type ScalarFieldType = 'text' | 'textarea' | 'wysiwyg' | 'date' | 'number' | 'boolean' | 'image' | 'media' | 'json';

interface PlanBase {
  /** Our field name (valid for `^[a-zA-Z][a-zA-Z0-9_]*$`). */
  name: string;
  /** The key in the source content. */
  sourceKey: string;
  label: string;
}

export interface ScalarFieldPlan extends PlanBase {
  type: ScalarFieldType;
}

export interface ReferenceFieldPlan extends PlanBase {
  type: 'reference';
  referenceType: ReferenceKind;
  multiple: boolean;
  collectionType?: string;
  sourceCollection?: string;
  pageType?: string;
  sourcePageType?: string;
}

export interface NestedComponentFieldPlan extends PlanBase {
  type: 'nestedComponent';
  componentSlug: string;
}

export interface ComponentPickerFieldPlan extends PlanBase {
  type: 'componentPicker';
  /** Source component type (snake_case) → our component slug (kebab-case). */
  componentSlugs: Record<string, string>;
}

export interface RepeaterFieldPlan extends PlanBase {
  type: 'repeater';
  fields: FieldPlan[];
}

export type FieldPlan =
  | ScalarFieldPlan
  | ReferenceFieldPlan
  | NestedComponentFieldPlan
  | ComponentPickerFieldPlan
  | RepeaterFieldPlan;

export interface InferredSchema {
  fields: SchemaField[];
  plan: FieldPlan[];
  /** Our field name → source key, for the top level (nested mappings live in `plan`). */
  mapping: Record<string, string>;
}

export interface InferredComponent extends ComponentDefinition {
  plan: FieldPlan[];
  /** Source names that produced this slug: picker `type`s and/or embedded-object field keys. */
  sourceNames: string[];
}

export interface SampleGroup {
  /** Identifies the schema in the result and in warnings, e.g. `landing-page` or `people`. */
  id: string;
  /** `collection` samples are whole items; their `meta` is dropped before inference. */
  kind?: 'page' | 'collection';
  /** Page `fields` objects or collection items. */
  samples: readonly unknown[];
}

export interface InferenceResult {
  schemas: Record<string, InferredSchema>;
  /** Components used by any of the schemas, fields inferred over every instance in every group. */
  components: InferredComponent[];
  warnings: ImportWarning[];
}

// ------------------------------------------------------------------------------------------------
// Observations of single values.

/**
 * A media URL is an `image` whatever its file: the contract maps ButterCMS media and file uploads
 * to image, and an image field takes any file unless its options restrict it.
 */
type StringType = 'text' | 'textarea' | 'wysiwyg' | 'date' | 'image';

type Observation =
  | { kind: 'empty'; array: boolean }
  | { kind: 'string'; type: StringType }
  | { kind: 'number' }
  | { kind: 'boolean' }
  | { kind: 'reference'; referenceType: 'collectionItem'; collections: Array<string | undefined>; multiple: boolean }
  | { kind: 'reference'; referenceType: 'page'; pageTypes: Array<string | null | undefined>; multiple: boolean }
  | { kind: 'object'; value: Record<string, unknown> }
  | { kind: 'picker'; instances: Array<{ type: string; fields: Record<string, unknown> }> }
  | { kind: 'repeater'; rows: Array<Record<string, unknown>> }
  | { kind: 'json' };

type ReferenceObservation = Extract<Observation, { kind: 'reference' }>;

function describe(o: Observation): string {
  switch (o.kind) {
    case 'string':
      return o.type;
    case 'reference':
      return `reference(${o.referenceType})`;
    case 'object':
      return 'nestedComponent';
    case 'picker':
      return 'componentPicker';
    default:
      return o.kind;
  }
}

interface Ctx {
  mediaHosts: readonly string[];
  collectionOfItemId: (id: number | string) => string | null | undefined;
  collectionSlugFor: (key: string) => string;
  pageTypeSlugFor: (type: string) => string;
  warnings: ImportWarning[];
  components: Map<string, { sourceNames: Set<string>; samples: Array<Record<string, unknown>> }>;
}

function observeString(value: string, ctx: Ctx): Observation {
  if (isReferenceUri(value)) return observeReference(value, ctx, false) ?? { kind: 'string', type: 'text' };
  if (isMediaUrl(value, ctx.mediaHosts)) return { kind: 'string', type: 'image' };
  if (isDateString(value)) return { kind: 'string', type: 'date' };
  if (isHtml(value)) return { kind: 'string', type: 'wysiwyg' };
  if (value.includes('\n') || value.length > 255) return { kind: 'string', type: 'textarea' };
  return { kind: 'string', type: 'text' };
}

function observeReference(value: unknown, ctx: Ctx, multiple: boolean): ReferenceObservation | null {
  const target = referenceTargetOf(value);
  if (!target) return null;
  if (target.kind === 'collectionItem') {
    const collection =
      target.collection ?? (isCollectionItemObject(value) ? ctx.collectionOfItemId(value.meta.id) ?? undefined : undefined);
    return { kind: 'reference', referenceType: 'collectionItem', collections: [collection], multiple };
  }
  return { kind: 'reference', referenceType: 'page', pageTypes: [target.pageType], multiple };
}

function observe(value: unknown, ctx: Ctx): Observation {
  if (value === null || value === undefined || value === '') return { kind: 'empty', array: false };
  if (typeof value === 'string') return observeString(value, ctx);
  if (typeof value === 'number') return { kind: 'number' };
  if (typeof value === 'boolean') return { kind: 'boolean' };
  if (Array.isArray(value)) return observeArray(value, ctx);
  if (isPlainObject(value)) {
    const reference = observeReference(value, ctx, false);
    if (reference) return reference;
    if (isMediaWithAlt(value, ctx.mediaHosts)) return { kind: 'string', type: 'image' };
    return { kind: 'object', value };
  }
  return { kind: 'json' };
}

function observeArray(values: readonly unknown[], ctx: Ctx): Observation {
  const items = values.filter((v) => v !== null && v !== undefined);
  if (items.length === 0) return { kind: 'empty', array: true };

  const references = items.map((item) => observeReference(item, ctx, true));
  if (references.every((r): r is ReferenceObservation => r !== null)) {
    const first = references[0]!;
    if (references.every((r) => r.referenceType === first.referenceType)) return mergeReferences(references);
    return { kind: 'json' };
  }
  if (items.every(isPickerInstance)) return { kind: 'picker', instances: items };
  const rows = items.filter(isPlainObject);
  if (rows.length === items.length && rows.every((item) => referenceTargetOf(item) === null)) {
    return { kind: 'repeater', rows };
  }
  return { kind: 'json' };
}

function mergeReferences(list: readonly ReferenceObservation[]): ReferenceObservation {
  const multiple = list.some((r) => r.multiple);
  if (list.every((r) => r.referenceType === 'collectionItem')) {
    const collections = list.flatMap((r) => (r.referenceType === 'collectionItem' ? r.collections : []));
    return { kind: 'reference', referenceType: 'collectionItem', collections, multiple };
  }
  const pageTypes = list.flatMap((r) => (r.referenceType === 'page' ? r.pageTypes : []));
  return { kind: 'reference', referenceType: 'page', pageTypes, multiple };
}

// ------------------------------------------------------------------------------------------------
// Uniting observations into one field.

const STRING_RANK: Record<StringType, number> = { date: 0, image: 0, text: 0, textarea: 1, wysiwyg: 2 };
const BY_RANK = ['text', 'textarea', 'wysiwyg'] as const;

type Placement = 'top' | 'component' | 'repeater';

interface FieldSite {
  /** For warnings: `landing-page.seo`, `component hero.image`, `landing-page.faq[].answer`. */
  path: string;
  placement: Placement;
}

function warn(ctx: Ctx, message: string): void {
  ctx.warnings.push({ level: 'warning', message });
}

function fallbackJson(base: PlanBase, ctx: Ctx, message: string): ScalarFieldPlan {
  warn(ctx, message);
  return { ...base, type: 'json' };
}

function planField(base: PlanBase, observations: readonly Observation[], site: FieldSite, ctx: Ctx): FieldPlan {
  const seen = observations.filter((o) => o.kind !== 'empty');
  if (seen.length === 0) {
    // Nothing to go on: an empty list hints at a list-shaped field whose element type is unknown.
    const sawArray = observations.some((o) => o.kind === 'empty' && o.array);
    const type = sawArray ? 'json' : 'text';
    warn(ctx, `${site.path}: every sample is empty, so the type cannot be inferred; using ${type}`);
    return { ...base, type };
  }

  const kinds = [...new Set(seen.map(describe))];
  const conflict = `${site.path}: samples disagree (${kinds.join(', ')})`;

  if (seen.every((o) => o.kind === 'string' || o.kind === 'number')) {
    if (seen.every((o) => o.kind === 'number')) return { ...base, type: 'number' };
    const first = seen[0];
    if (kinds.length === 1 && first?.kind === 'string') return { ...base, type: first.type };
    const rank = Math.max(...seen.map((o) => (o.kind === 'string' ? STRING_RANK[o.type] : 0)));
    const type = BY_RANK[rank] ?? 'text';
    warn(ctx, `${conflict}; using ${type}`);
    return { ...base, type };
  }
  if (seen.every((o) => o.kind === 'boolean')) return { ...base, type: 'boolean' };
  if (seen.every((o) => o.kind === 'json')) return { ...base, type: 'json' };

  if (seen.every((o): o is ReferenceObservation => o.kind === 'reference')) {
    if (kinds.length > 1) return fallbackJson(base, ctx, `${conflict}; using json`);
    return planReference(base, mergeReferences(seen), site, ctx);
  }

  if (kinds.length > 1) return fallbackJson(base, ctx, `${conflict}; using json`);

  const componentish = seen[0]!.kind;
  if (site.placement === 'repeater') {
    return fallbackJson(
      base,
      ctx,
      `${site.path}: a repeater cannot hold a ${describe(seen[0]!)}; stored as json instead`,
    );
  }
  if (site.placement === 'component' && componentish !== 'repeater') {
    return fallbackJson(
      base,
      ctx,
      `${site.path}: components nest only one level deep, so this ${describe(seen[0]!)} is stored as json`,
    );
  }

  if (componentish === 'object') {
    const slug = toKebabCase(base.sourceKey, 'component');
    registerComponent(ctx, slug, base.sourceKey, seen.flatMap((o) => (o.kind === 'object' ? [o.value] : [])));
    return { ...base, type: 'nestedComponent', componentSlug: slug };
  }
  if (componentish === 'picker') {
    const componentSlugs: Record<string, string> = {};
    for (const o of seen) {
      if (o.kind !== 'picker') continue;
      for (const instance of o.instances) {
        const slug = toKebabCase(instance.type, 'component');
        componentSlugs[instance.type] = slug;
        registerComponent(ctx, slug, instance.type, [instance.fields]);
      }
    }
    return { ...base, type: 'componentPicker', componentSlugs };
  }
  // The only kind left is a repeater.
  const rows = seen.flatMap((o) => (o.kind === 'repeater' ? o.rows : []));
  const fields = planFields(rows, { path: `${site.path}[]`, placement: 'repeater' }, ctx);
  if (fields.length === 0) return fallbackJson(base, ctx, `${site.path}: repeater rows have no fields; using json`);
  return { ...base, type: 'repeater', fields };
}

function planReference(base: PlanBase, ref: ReferenceObservation, site: FieldSite, ctx: Ctx): FieldPlan {
  if (ref.referenceType === 'collectionItem') {
    const known = [...new Set(ref.collections.filter((c): c is string => c !== undefined))];
    if (known.length === 0) {
      return fallbackJson(base, ctx, `${site.path}: references items of a collection that could not be identified; using json`);
    }
    if (known.length > 1) {
      return fallbackJson(
        base,
        ctx,
        `${site.path}: references items of several collections (${known.join(', ')}); using json`,
      );
    }
    const sourceCollection = known[0]!;
    return {
      ...base,
      type: 'reference',
      referenceType: 'collectionItem',
      multiple: ref.multiple,
      collectionType: ctx.collectionSlugFor(sourceCollection),
      sourceCollection,
    };
  }
  // A pageType scopes the reference only when every sample that says its type agrees.
  const declared = [...new Set(ref.pageTypes.filter((t) => t !== undefined))];
  const only = declared.length === 1 ? declared[0] : undefined;
  const plan: ReferenceFieldPlan = { ...base, type: 'reference', referenceType: 'page', multiple: ref.multiple };
  if (typeof only === 'string') {
    plan.pageType = ctx.pageTypeSlugFor(only);
    plan.sourcePageType = only;
  }
  return plan;
}

function registerComponent(ctx: Ctx, slug: string, sourceName: string, samples: Array<Record<string, unknown>>): void {
  let entry = ctx.components.get(slug);
  if (!entry) {
    entry = { sourceNames: new Set(), samples: [] };
    ctx.components.set(slug, entry);
  }
  entry.sourceNames.add(sourceName);
  entry.samples.push(...samples);
}

function planFields(samples: ReadonlyArray<Record<string, unknown>>, site: FieldSite, ctx: Ctx): FieldPlan[] {
  // Keys in first-seen order, so the schema reads like the source content.
  const keys: string[] = [];
  const known = new Set<string>();
  for (const sample of samples) {
    for (const key of Object.keys(sample)) {
      if (!known.has(key)) {
        known.add(key);
        keys.push(key);
      }
    }
  }
  // Keys that are already valid names keep them; only renamed keys take a suffix on collision.
  const taken = new Set<string>();
  const names = new Map<string, string>();
  for (const key of keys) if (toFieldName(key) === key) names.set(key, makeUnique(key, taken));
  for (const key of keys) if (!names.has(key)) names.set(key, makeUnique(toFieldName(key), taken));
  return keys.map((sourceKey) => {
    const name = names.get(sourceKey) ?? sourceKey;
    if (name !== sourceKey) {
      ctx.warnings.push({ level: 'info', message: `${site.path}.${sourceKey}: renamed to "${name}"` });
    }
    const base: PlanBase = { name, sourceKey, label: humanize(sourceKey) };
    const fieldSite: FieldSite = { path: `${site.path}.${sourceKey}`, placement: site.placement };
    return planField(base, samples.map((s) => observe(s[sourceKey], ctx)), fieldSite, ctx);
  });
}

// ------------------------------------------------------------------------------------------------
// Output.

export function toSchemaField(plan: FieldPlan): SchemaField {
  const field: SchemaField = { name: plan.name, label: plan.label, type: plan.type, required: false };
  switch (plan.type) {
    case 'reference': {
      const options: Record<string, unknown> = { referenceType: plan.referenceType, multiple: plan.multiple };
      if (plan.collectionType !== undefined) options.collectionType = plan.collectionType;
      if (plan.pageType !== undefined) options.pageType = plan.pageType;
      field.options = options;
      break;
    }
    case 'nestedComponent':
      field.options = { componentSlug: plan.componentSlug };
      break;
    case 'componentPicker':
      field.options = { allowedComponents: [...new Set(Object.values(plan.componentSlugs))] };
      break;
    case 'repeater':
      field.options = { fields: plan.fields.map(toSchemaField) };
      break;
    default:
      break;
  }
  return field;
}

function toInferredSchema(plan: FieldPlan[]): InferredSchema {
  return {
    fields: plan.map(toSchemaField),
    plan,
    mapping: Object.fromEntries(plan.map((p) => [p.name, p.sourceKey])),
  };
}

function createCtx(options: InferOptions): Ctx {
  return {
    mediaHosts: options.mediaHosts ?? [],
    collectionOfItemId: options.collectionOfItemId ?? (() => undefined),
    collectionSlugFor: options.collectionSlugFor ?? ((key) => toSlug(key)),
    pageTypeSlugFor: options.pageTypeSlugFor ?? ((type) => toSlug(type)),
    warnings: [],
    components: new Map(),
  };
}

/**
 * Infers the schemas of several page types / collections at once. They are inferred together
 * because ButterCMS components are shared: `seo` on two page types, or `hero` both as a picker
 * type and as an embedded object, is one component whose fields come from every instance.
 */
export function inferSchemas(groups: readonly SampleGroup[], options: InferOptions = {}): InferenceResult {
  const ctx = createCtx(options);
  const schemas: Record<string, InferredSchema> = {};
  for (const group of groups) {
    const samples: Array<Record<string, unknown>> = [];
    for (const sample of group.samples) {
      if (!isPlainObject(sample)) {
        warn(ctx, `${group.id}: skipped a sample that is not an object`);
        continue;
      }
      samples.push(group.kind === 'collection' ? fieldsOfItem(sample) : sample);
    }
    schemas[group.id] = toInferredSchema(planFields(samples, { path: group.id, placement: 'top' }, ctx));
  }

  // Components are planned after every group has registered its instances. Their own fields cannot
  // register further components (nesting is limited to one level), so one pass suffices.
  const components: InferredComponent[] = [];
  for (const [slug, entry] of ctx.components) {
    const plan = planFields(entry.samples, { path: `component ${slug}`, placement: 'component' }, ctx);
    const [firstName] = entry.sourceNames;
    components.push({
      slug,
      name: humanize(firstName ?? slug),
      fields: plan.map(toSchemaField),
      plan,
      sourceNames: [...entry.sourceNames],
    });
  }
  return { schemas, components, warnings: ctx.warnings };
}

/** Single-schema convenience over `inferSchemas`. */
export function inferSchema(
  samples: readonly unknown[],
  options: InferOptions & { id?: string; kind?: 'page' | 'collection' } = {},
): InferredSchema & { components: InferredComponent[]; warnings: ImportWarning[] } {
  const id = options.id ?? 'schema';
  const result = inferSchemas([{ id, kind: options.kind ?? 'page', samples }], options);
  const schema = result.schemas[id] ?? toInferredSchema([]);
  return { ...schema, components: result.components, warnings: result.warnings };
}
