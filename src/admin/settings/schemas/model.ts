import type { FieldType } from '../../../core/schema/index.js';

// The schema builder's working copy of a type: each field a draft the form edits, turned into the
// definition the admin API takes (toDefinition) and read back from a stored one (fromDefinition).

export type KindKey = 'pageTypes' | 'collections' | 'components';
export interface Kind { key: KindKey; seg: string; api: string; label: string; one: string }
export const kinds: Kind[] = [
  { key: 'pageTypes', seg: 'page-types', api: '/page-types', label: 'Page types', one: 'page type' },
  { key: 'collections', seg: 'collections', api: '/collection-types', label: 'Collections', one: 'collection' },
  { key: 'components', seg: 'components', api: '/components', label: 'Components', one: 'component' },
];
export const kindBySeg = (seg: string | undefined): Kind | undefined => kinds.find((k) => k.seg === seg);

export interface StoredType { slug: string; name: string; fields: Array<Record<string, unknown>> }

export interface ChoiceDraft { key: number; label: string; value: string }
export interface FieldDraft {
  key: number;
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  localized: boolean;
  requiredInAllLocales: boolean;
  /** As typed: a string for text-like types, JSON for the others (empty: no default). */
  defaultValue: string;
  /** Scalar options as typed (numbers kept as text until converted). */
  opts: Record<string, string>;
  multiple: boolean;
  choices: ChoiceDraft[];
  allowedComponents: string[];
  subFields: FieldDraft[];
}

let seq = 0;
export const nextKey = (): number => ++seq;

/** Which options each type allows, beyond placeholder and helpText (the server's rules, src/core/schema/fields.ts). */
export const numberOptions: Partial<Record<FieldType, string[]>> = {
  text: ['minLength', 'maxLength'],
  textarea: ['minLength', 'maxLength'],
  image: ['maxFileSize'],
  media: ['maxFileSize'],
  number: ['min', 'max', 'step'],
  componentPicker: ['maxItems'],
  repeater: ['minItems', 'maxItems'],
};
export const optionLabels: Record<string, string> = {
  minLength: 'Minimum length', maxLength: 'Maximum length', maxFileSize: 'Maximum file size (bytes)',
  min: 'Minimum', max: 'Maximum', step: 'Step', maxItems: 'Maximum items', minItems: 'Minimum items',
  pattern: 'Pattern (regular expression)', patternMessage: 'Pattern message', allowedMimeTypes: 'Allowed MIME types (comma-separated)',
  placeholder: 'Placeholder', helpText: 'Help text', referenceType: 'Refers to', collectionType: 'Collection', pageType: 'Page type (optional)',
  componentSlug: 'Component',
};
/** Types whose default value is typed as plain text; the others take JSON. */
const textDefaults: readonly FieldType[] = ['text', 'textarea', 'wysiwyg', 'select', 'color', 'date', 'datetime'];
export const defaultIsText = (type: FieldType): boolean => textDefaults.includes(type);

export function newField(type: FieldType = 'text'): FieldDraft {
  return {
    key: nextKey(), name: '', label: '', type, required: false, localized: false, requiredInAllLocales: false,
    defaultValue: '', opts: {}, multiple: false, choices: [], allowedComponents: [], subFields: [],
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function fromField(f: Record<string, unknown>): FieldDraft {
  const options = isRecord(f.options) ? f.options : {};
  const type = String(f.type) as FieldType; // cast: a stored field passed the server's validation
  const opts: Record<string, string> = {};
  for (const [k, v] of Object.entries(options)) {
    if (typeof v === 'string') opts[k] = v;
    else if (typeof v === 'number') opts[k] = String(v);
    else if (k === 'allowedMimeTypes' && Array.isArray(v)) opts[k] = v.join(', ');
  }
  const dv = f.defaultValue;
  return {
    key: nextKey(),
    name: typeof f.name === 'string' ? f.name : '',
    label: typeof f.label === 'string' ? f.label : '',
    type,
    required: f.required === true,
    localized: f.localized === true,
    requiredInAllLocales: f.requiredInAllLocales === true,
    defaultValue: dv === undefined ? '' : defaultIsText(type) && typeof dv === 'string' ? dv : JSON.stringify(dv),
    opts,
    multiple: options.multiple === true,
    choices: Array.isArray(options.choices)
      ? options.choices.filter(isRecord).map((c) => ({ key: nextKey(), label: String(c.label ?? ''), value: String(c.value ?? '') }))
      : [],
    allowedComponents: Array.isArray(options.allowedComponents) ? options.allowedComponents.map(String) : [],
    subFields: Array.isArray(options.fields) ? options.fields.filter(isRecord).map(fromField) : [],
  };
}

/** A number as typed: empty is "not set", a number is a number, anything else is sent as typed (and refused). */
function num(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}
const str = (text: string | undefined): string | undefined => (text === undefined || text === '' ? undefined : text);

/** The JSON problems of default values typed as JSON, by field path (the API never sees them). */
export interface LocalIssue { path: string; message: string }

export function toField(d: FieldDraft, path: string, local: LocalIssue[]): Record<string, unknown> {
  const out: Record<string, unknown> = { name: d.name };
  if (d.label.trim()) out.label = d.label;
  out.type = d.type;
  if (d.required) out.required = true;
  if (d.defaultValue !== '') {
    if (defaultIsText(d.type)) out.defaultValue = d.defaultValue;
    else {
      try { out.defaultValue = JSON.parse(d.defaultValue); } catch { local.push({ path: `${path}.defaultValue`, message: 'must be valid JSON (like 3, true, "text" or ["a"])' }); }
    }
  }
  const o: Record<string, unknown> = {};
  const set = (k: string, v: unknown) => { if (v !== undefined) o[k] = v; };
  set('placeholder', str(d.opts.placeholder));
  set('helpText', str(d.opts.helpText));
  for (const k of numberOptions[d.type] ?? []) set(k, num(d.opts[k]));
  switch (d.type) {
    case 'text': case 'textarea':
      set('pattern', str(d.opts.pattern));
      set('patternMessage', str(d.opts.patternMessage));
      break;
    case 'image': case 'media': {
      const types = (d.opts.allowedMimeTypes ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (types.length) o.allowedMimeTypes = types;
      break;
    }
    case 'select':
      // No choices: a select that takes any text (the list is left out, not sent empty).
      if (d.choices.length) o.choices = d.choices.map((c) => ({ label: c.label, value: c.value }));
      break;
    case 'reference': {
      const rt = d.opts.referenceType ?? 'collectionItem';
      if (rt !== 'collectionItem') o.referenceType = rt;
      if (rt === 'collectionItem') set('collectionType', str(d.opts.collectionType));
      if (rt === 'page') set('pageType', str(d.opts.pageType));
      if (d.multiple) o.multiple = true;
      break;
    }
    case 'componentPicker':
      if (d.allowedComponents.length) o.allowedComponents = d.allowedComponents;
      break;
    case 'nestedComponent':
      set('componentSlug', str(d.opts.componentSlug));
      break;
    case 'repeater':
      o.fields = d.subFields.map((s, i) => toField(s, `${path}.options.fields[${i}]`, local));
      break;
    default:
  }
  // Required settings are always sent, so a missing one is named (`options.componentSlug: required`).
  if (Object.keys(o).length || ['select', 'reference', 'nestedComponent', 'repeater'].includes(d.type)) out.options = o;
  if (d.localized) out.localized = true;
  if (d.localized && d.required && d.requiredInAllLocales) out.requiredInAllLocales = true;
  return out;
}

export interface Draft { slug: string; name: string; fields: FieldDraft[] }

export function toDefinition(d: Draft): { definition: StoredType; local: LocalIssue[] } {
  const local: LocalIssue[] = [];
  const fields = d.fields.map((f, i) => toField(f, `fields[${i}]`, local));
  return { definition: { slug: d.slug, name: d.name, fields }, local };
}

export const fromDefinition = (t: StoredType): Draft => ({ slug: t.slug, name: t.name, fields: t.fields.map(fromField) });

/** Moves an item of a list, returning a new list. */
export function move<T>(list: T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return list;
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item as T);
  return copy;
}
