// Converts delivered ButterCMS values into our stored content shape, driven by the plans that
// inference produced. Pure: every lookup of media or local ids is a function the caller provides,
// so the importer decides when and how those ids come to exist.

import {
  isHtml,
  isMediaUrl,
  isPickerInstance,
  isPlainObject,
  referenceTargetOf,
  type FieldPlan,
  type InferredComponent,
  type ReferenceTarget,
} from './infer.js';
import type { ImportWarning, ReferenceKind } from './types.js';
import { cutText } from '../../lib/cut-text.js';

export interface ReferenceHint {
  collection?: string;
  pageType?: string | null;
}

export interface ConvertContext {
  /** Our media id for a source media URL; null/undefined when it was not imported. */
  mediaIdForUrl: (url: string) => string | null | undefined;
  /**
   * Our id for a source entity: `sourceKey` is the item id (as a string) for collection items and
   * the slug for pages (ButterCMS slugs are unique across page types, since `/pages/*\/<slug>/` works).
   */
  localIdFor: (kind: ReferenceKind, sourceKey: string, hint: ReferenceHint) => string | null | undefined;
  /** Components from the same inference run; nested and picker values are converted by their plans. */
  components: ReadonlyArray<InferredComponent> | ReadonlyMap<string, InferredComponent>;
  /** Prefix for warnings, e.g. `page landing-page/spring-launch`. */
  where?: string;
}

export interface ConvertResult {
  value: Record<string, unknown>;
  warnings: ImportWarning[];
}

export interface StoredReference {
  _ref: string;
  _type: ReferenceKind;
}

export interface StoredMedia {
  _media: string;
}

interface State {
  ctx: ConvertContext;
  components: ReadonlyMap<string, InferredComponent>;
  warnings: ImportWarning[];
}

function componentMap(
  components: ConvertContext['components'],
): ReadonlyMap<string, InferredComponent> {
  if (components instanceof Map) return components;
  // `instanceof Map` does not narrow a ReadonlyMap out of the union (it is an interface): what is left is the list.
  return new Map((components as ReadonlyArray<InferredComponent>).map((c) => [c.slug, c]));
}

function drop(state: State, path: string, why: string): undefined {
  state.warnings.push({ level: 'warning', message: `${path}: ${why}; value dropped` });
  return undefined;
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${cutText(text, 77)}...` : text;
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

function convertMedia(value: unknown, path: string, state: State): StoredMedia | undefined {
  // `{ url, alt }` is how media arrives when the source was read with alt_media_text=1.
  const url = typeof value === 'string' ? value : isPlainObject(value) ? value.url : undefined;
  if (typeof url !== 'string' || url === '') return drop(state, path, `expected a media URL, got ${preview(value)}`);
  const id = state.ctx.mediaIdForUrl(url);
  if (!id) return drop(state, path, `media ${url} was not imported`);
  return { _media: id };
}

function convertReference(
  value: unknown,
  plan: Extract<FieldPlan, { type: 'reference' }>,
  path: string,
  state: State,
): StoredReference | undefined {
  const target: ReferenceTarget | null = referenceTargetOf(value);
  if (!target) return drop(state, path, `expected a reference, got ${preview(value)}`);
  if (target.kind !== plan.referenceType) {
    return drop(state, path, `expected a ${plan.referenceType} reference, got a ${target.kind} reference`);
  }
  if (target.sourceKey === '') return drop(state, path, `reference ${preview(value)} names no item`);
  const hint: ReferenceHint = {};
  const collection = target.collection ?? plan.sourceCollection;
  if (collection !== undefined) hint.collection = collection;
  if (target.pageType !== undefined) hint.pageType = target.pageType;
  const id = state.ctx.localIdFor(target.kind, target.sourceKey, hint);
  if (!id) return drop(state, path, `${target.kind} ${target.sourceKey} is unknown here`);
  return { _ref: id, _type: plan.referenceType };
}

function convertComponent(
  slug: string,
  fields: unknown,
  path: string,
  state: State,
): Record<string, unknown> | undefined {
  const component = state.components.get(slug);
  if (!component) return drop(state, path, `component "${slug}" is not in the inferred schema`);
  if (!isPlainObject(fields)) return drop(state, path, `expected an object for component "${slug}"`);
  // `_type` first: the delivered shape names the component before its fields.
  return { _type: slug, ...convertObject(fields, component.plan, path, state) };
}

function convertValue(value: unknown, plan: FieldPlan, path: string, state: State): unknown {
  switch (plan.type) {
    case 'text':
    case 'textarea':
    case 'wysiwyg':
      if (typeof value === 'string') return value;
      // A number among strings resolved to text; keep its digits rather than losing the value.
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      return drop(state, path, `expected a string, got ${preview(value)}`);
    case 'date':
      if (value === '') return undefined;
      if (typeof value === 'string') return value;
      return drop(state, path, `expected a date string, got ${preview(value)}`);
    case 'number':
      if (value === '') return undefined;
      if (typeof value === 'number') return value;
      return drop(state, path, `expected a number, got ${preview(value)}`);
    case 'boolean':
      if (value === '') return undefined;
      if (typeof value === 'boolean') return value;
      return drop(state, path, `expected a boolean, got ${preview(value)}`);
    case 'image':
    case 'media':
      if (value === '') return undefined;
      return convertMedia(value, path, state);
    case 'json':
      return structuredClone(value);
    case 'reference': {
      if (value === '') return undefined;
      const list = Array.isArray(value) ? value : [value];
      const refs: StoredReference[] = [];
      list.forEach((item, i) => {
        if (isEmpty(item)) return;
        const ref = convertReference(item, plan, plan.multiple ? `${path}[${i}]` : path, state);
        if (ref) refs.push(ref);
      });
      if (plan.multiple) return refs;
      if (refs.length > 1) {
        state.warnings.push({
          level: 'warning',
          message: `${path}: ${refs.length} references for a single reference field; kept the first`,
        });
      }
      return refs[0];
    }
    case 'nestedComponent':
      if (value === '') return undefined;
      return convertComponent(plan.componentSlug, value, path, state);
    case 'componentPicker': {
      if (!Array.isArray(value)) return drop(state, path, `expected a list of components, got ${preview(value)}`);
      const out: Array<Record<string, unknown>> = [];
      value.forEach((instance, i) => {
        const at = `${path}[${i}]`;
        if (!isPickerInstance(instance)) {
          drop(state, at, `expected { type, fields }, got ${preview(instance)}`);
          return;
        }
        const slug = plan.componentSlugs[instance.type];
        if (slug === undefined) {
          drop(state, at, `component type "${instance.type}" was not seen during inference`);
          return;
        }
        const converted = convertComponent(slug, instance.fields, at, state);
        if (converted) out.push(converted);
      });
      return out;
    }
    case 'repeater': {
      if (!Array.isArray(value)) return drop(state, path, `expected a list of rows, got ${preview(value)}`);
      const rows: Array<Record<string, unknown>> = [];
      value.forEach((row, i) => {
        if (!isPlainObject(row)) {
          drop(state, `${path}[${i}]`, `expected an object row, got ${preview(row)}`);
          return;
        }
        rows.push(convertObject(row, plan.fields, `${path}[${i}]`, state));
      });
      return rows;
    }
  }
}

function convertObject(
  source: Record<string, unknown>,
  plan: readonly FieldPlan[],
  path: string,
  state: State,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const planned = new Set<string>();
  for (const field of plan) {
    planned.add(field.sourceKey);
    const value = source[field.sourceKey];
    if (value === null || value === undefined) continue;
    const converted = convertValue(value, field, `${path}.${field.sourceKey}`, state);
    if (converted !== undefined) out[field.name] = converted;
  }
  for (const key of Object.keys(source)) {
    if (!planned.has(key) && !isEmpty(source[key])) {
      state.warnings.push({
        level: 'warning',
        message: `${path}.${key}: not in the inferred schema (no sample had it); value dropped`,
      });
    }
  }
  return out;
}

/**
 * Converts one source object (page `fields`, or a collection item without its `meta`) with the
 * plan of its schema. Empty values (null, missing) are omitted, so required-field checks see them
 * as absent rather than as invalid values.
 */
export function convertFields(source: Record<string, unknown>, plan: readonly FieldPlan[], ctx: ConvertContext): ConvertResult {
  const state: State = { ctx, components: componentMap(ctx.components), warnings: [] };
  const value = convertObject(source, plan, ctx.where ?? 'content', state);
  return { value, warnings: state.warnings };
}

const HTML_URL_ATTRIBUTE = /\b(?:src|href|poster|data-src)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const SRCSET = /\bsrcset\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

/**
 * Every media URL inside a delivered value, in first-seen order: media fields, and `src`/`href`
 * inside HTML, because ButterCMS has no media listing and WYSIWYG bodies embed assets directly.
 */
export function collectMediaUrls(value: unknown, mediaHosts: readonly string[] = []): string[] {
  const found = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      if (isMediaUrl(v, mediaHosts)) found.add(v);
      else if (isHtml(v)) {
        for (const m of v.matchAll(HTML_URL_ATTRIBUTE)) {
          const url = decodeHtmlAttribute(m[1] ?? m[2] ?? '');
          if (isMediaUrl(url, mediaHosts)) found.add(url);
        }
        for (const m of v.matchAll(SRCSET)) {
          for (const candidate of (m[1] ?? m[2] ?? '').split(',')) {
            const url = decodeHtmlAttribute(candidate.trim().split(/\s+/)[0] ?? '');
            if (isMediaUrl(url, mediaHosts)) found.add(url);
          }
        }
      }
    } else if (Array.isArray(v)) {
      v.forEach(visit);
    } else if (isPlainObject(v)) {
      Object.values(v).forEach(visit);
    }
  };
  visit(value);
  return [...found];
}

function decodeHtmlAttribute(value: string): string {
  return value.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}
