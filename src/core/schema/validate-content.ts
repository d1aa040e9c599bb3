import { isValidColor } from './colors.js';
import type { FieldOf, ReferenceType, SchemaField, TypeDefinition } from './fields.js';
import { formatPath, type Issue, type PathSegment } from './issues.js';
import { ownValue } from '../../lib/unknown-values.js';

/** What an id in content points at; one `existingIds` call is made per distinct target. */
export type ContentTarget =
  | { kind: 'page'; pageType?: string }
  | { kind: 'collectionItem'; collectionType: string }
  | { kind: 'user' }
  | { kind: 'blogPost' }
  | { kind: 'media' };

export interface MediaInfo {
  mimeType: string;
  size: number;
}

export type ComponentLookup = (slug: string) => TypeDefinition | undefined;

export interface ContentLookups {
  /** The ids among `ids` that exist (not deleted); called once per target for the whole document. */
  existingIds(target: ContentTarget, ids: string[]): Promise<Set<string>>;
  /**
   * The media among `ids` that exist, with their type and size: when given, it answers for media
   * existence too (one query per document), and image fields, allowedMimeTypes and maxFileSize are
   * checked against it; without it only existence is checked.
   */
  media?(ids: string[]): Promise<Map<string, MediaInfo>>;
  /** Components of the project, already loaded. */
  component(slug: string): TypeDefinition | undefined;
}

export interface ValidateContentOptions {
  /** Saving a draft leaves this off (a draft may be incomplete); publishing turns it on. */
  requireRequired: boolean;
  /** On for new content: a field left out (undefined) takes its defaultValue. */
  applyDefaults: boolean;
}

export interface ValidateContentResult {
  value: Record<string, unknown>;
  issues: Issue[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// The contract limits component nesting to one level (page → component → component); deeper
// instances are refused here too, so content never outgrows what the schema check allows.
const MAX_COMPONENT_CHAIN = 2;

interface RawIssue {
  path: PathSegment[];
  message: string;
}

interface ExistenceUse {
  path: PathSegment[];
  id: string;
  target: ContentTarget;
  // Only for media fields that restrict the files they accept.
  constraints?: { allowedMimeTypes?: readonly string[]; maxFileSize?: number };
}

interface Walk {
  issues: RawIssue[];
  uses: ExistenceUse[];
  requireRequired: boolean;
  applyDefaults: boolean;
  // Undefined when checking a defaultValue inside a single definition: components are not known
  // there, so instances are checked for shape only (checkSchemaSet checks them fully).
  component: ComponentLookup | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

function isJsonValue(value: unknown, depth = 0): boolean {
  if (depth > 200) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  if (isRecord(value)) {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return false;
    return Object.values(value).every((item) => isJsonValue(item, depth + 1));
  }
  return false;
}

/** Length in characters as a person counts them (code points), not UTF-16 units. */
function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

const patternCache = new Map<string, RegExp | null>();
function compilePattern(source: string): RegExp | null {
  let compiled = patternCache.get(source);
  if (compiled === undefined) {
    try {
      compiled = new RegExp(source);
    } catch {
      // The definition check refuses such patterns; a stored one is ignored rather than crashing.
      compiled = null;
    }
    patternCache.set(source, compiled);
  }
  return compiled;
}

function targetKey(target: ContentTarget): string {
  switch (target.kind) {
    case 'page':
      return `page:${target.pageType ?? ''}`;
    case 'collectionItem':
      return `collectionItem:${target.collectionType}`;
    default:
      return target.kind;
  }
}

function describeTarget(target: ContentTarget): string {
  switch (target.kind) {
    case 'page':
      return target.pageType === undefined ? 'page' : `page of type "${target.pageType}"`;
    case 'collectionItem':
      return `item of collection "${target.collectionType}"`;
    case 'blogPost':
      return 'blog post';
    default:
      return target.kind;
  }
}

function referenceTarget(options: FieldOf<'reference'>['options']): ContentTarget | undefined {
  const referenceType: ReferenceType = options.referenceType ?? 'collectionItem';
  switch (referenceType) {
    case 'page':
      return options.pageType === undefined ? { kind: 'page' } : { kind: 'page', pageType: options.pageType };
    case 'collectionItem':
      return options.collectionType === undefined ? undefined : { kind: 'collectionItem', collectionType: options.collectionType };
    default:
      return { kind: referenceType };
  }
}

const MEDIA_MESSAGE = 'must be a valid media reference (a media UUID, { id: <uuid> } or { _media: <uuid> })';

/**
 * The id a media value holds. `{ _media }` is accepted although the contract says such a write "may
 * fail": the importer writes it and clients copy delivered content back, so refusing it would break
 * round trips. The value is stored exactly as sent; delivery decides how each form is resolved.
 */
function mediaIdOf(value: unknown): { id: string; form: 'uuid' | 'id' | '_media' } | undefined {
  if (isUuid(value)) return { id: value, form: 'uuid' };
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  if (keys[0] === 'id' && isUuid(value.id)) return { id: value.id, form: 'id' };
  if (keys[0] === '_media' && isUuid(value._media)) return { id: value._media, form: '_media' };
  return undefined;
}

function mimeTypeAllowed(mimeType: string, allowed: readonly string[]): boolean {
  const actual = mimeType.toLowerCase();
  return allowed.some((pattern) => {
    const wanted = pattern.toLowerCase();
    // `image/*` is how upload dialogs and other CMSs spell "any image"; accept it too.
    return wanted.endsWith('/*') ? actual.startsWith(wanted.slice(0, -1)) : actual === wanted;
  });
}

function addIssue(walk: Walk, path: PathSegment[], message: string): void {
  walk.issues.push({ path, message });
}

/** Validates an object of field values; unknown keys are refused (`_type` too unless `allowType`). */
function validateFields(
  fields: readonly SchemaField[],
  values: unknown,
  path: PathSegment[],
  walk: Walk,
  chain: readonly string[],
  allowType: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isRecord(values)) {
    addIssue(walk, path, 'must be an object');
    return out;
  }
  const known = new Set(fields.map((field) => field.name));
  for (const key of Object.keys(values)) {
    if (!known.has(key) && !(allowType && key === '_type')) addIssue(walk, [...path, key], 'unknown field');
  }
  for (const field of fields) {
    const fieldPath = [...path, field.name];
    let value = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
    if (value === undefined && walk.applyDefaults && field.defaultValue !== undefined) value = structuredClone(field.defaultValue);
    if (walk.requireRequired && field.required === true && isEmpty(value)) {
      addIssue(walk, fieldPath, 'required');
      continue;
    }
    if (value === undefined) continue;
    // null is "no value": it clears a field (PUT merges key by key) and is stored as sent.
    out[field.name] = value === null ? null : validateValue(field, value, fieldPath, walk, chain);
  }
  return out;
}

function validateValue(field: SchemaField, value: unknown, path: PathSegment[], walk: Walk, chain: readonly string[]): unknown {
  const fail = (message: string, at: PathSegment[] = path): unknown => {
    addIssue(walk, at, message);
    return value;
  };
  switch (field.type) {
    case 'text':
    case 'textarea': {
      if (typeof value !== 'string') return fail('must be a string');
      // An empty string is "no value" (as for required): an optional field cleared in a form must
      // not fail minLength or pattern.
      if (value === '') return value;
      const options = field.options ?? {};
      const length = characterCount(value);
      if (options.minLength !== undefined && length < options.minLength) fail(`must be at least ${options.minLength} characters`);
      if (options.maxLength !== undefined && length > options.maxLength) fail(`must be at most ${options.maxLength} characters`);
      if (options.pattern !== undefined) {
        // Unanchored, as in Strapi: a pattern that must match the whole value says so with ^ and $.
        const pattern = compilePattern(options.pattern);
        if (pattern !== null && !pattern.test(value)) fail(options.patternMessage ?? `must match the pattern ${options.pattern}`);
      }
      return value;
    }
    case 'wysiwyg':
      // Stored exactly as sent: the contract puts sanitising on the clients (and the admin editor).
      return typeof value === 'string' ? value : fail('must be a string of HTML');
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return fail('must be a finite number');
      const options = field.options ?? {};
      if (options.min !== undefined && value < options.min) fail(`must be >= ${options.min}`);
      if (options.max !== undefined && value > options.max) fail(`must be <= ${options.max}`);
      // `step` is not enforced: the contract lists it as an input hint with default 1, and refusing
      // 1.5 on a price field would surprise everyone who never set a step.
      return value;
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : fail('must be a boolean');
    case 'date':
    case 'datetime':
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) {
        return fail(field.type === 'date' ? 'must be a date string (YYYY-MM-DD)' : 'must be a date-time string (ISO 8601)');
      }
      return value;
    case 'color':
      if (typeof value !== 'string' || !isValidColor(value)) {
        return fail('must be a colour: #rgb, #rrggbb, rgb(), rgba(), hsl(), hsla() or a supported CSS colour name');
      }
      return value;
    case 'json':
      return isJsonValue(value) ? value : fail('must be a JSON value');
    case 'select': {
      if (typeof value !== 'string') return fail('must be a string');
      const choices = field.options?.choices;
      if (choices !== undefined && !choices.some((choice) => choice.value === value)) {
        fail(`must be one of: ${choices.map((choice) => JSON.stringify(choice.value)).join(', ')}`);
      }
      return value;
    }
    case 'image':
    case 'media': {
      const media = mediaIdOf(value);
      if (!media) return fail(MEDIA_MESSAGE);
      const options = field.options ?? {};
      // Any file unless the options restrict it: `allowedMimeTypes`, `maxFileSize` (an image field
      // too: the contract asks only for a valid media reference).
      const { allowedMimeTypes, maxFileSize } = options;
      const constraints =
        allowedMimeTypes !== undefined || maxFileSize !== undefined
          ? { ...(allowedMimeTypes !== undefined ? { allowedMimeTypes } : {}), ...(maxFileSize !== undefined ? { maxFileSize } : {}) }
          : undefined;
      walk.uses.push({ path, id: media.id, target: { kind: 'media' }, ...(constraints ? { constraints } : {}) });
      return value;
    }
    case 'reference':
      return validateReference(field, value, path, walk);
    case 'componentPicker': {
      if (!Array.isArray(value)) return fail('must be an array of component instances');
      const options = field.options ?? {};
      if (options.maxItems !== undefined && value.length > options.maxItems) fail(`must have at most ${options.maxItems} items`);
      return value.map((instance: unknown, index) => {
        const itemPath = [...path, index];
        if (!isRecord(instance)) {
          addIssue(walk, itemPath, 'must be a component instance object ({ _type: "<component-slug>", ... })');
          return instance;
        }
        const slug = instance._type;
        if (typeof slug !== 'string') {
          addIssue(walk, [...itemPath, '_type'], slug === undefined ? 'required' : 'must be a component slug');
          return instance;
        }
        if (options.allowedComponents !== undefined && !options.allowedComponents.includes(slug)) {
          addIssue(walk, [...itemPath, '_type'], `component "${slug}" is not allowed here (allowed: ${options.allowedComponents.join(', ')})`);
          return instance;
        }
        return validateInstance(slug, instance, itemPath, [...itemPath, '_type'], walk, chain);
      });
    }
    case 'nestedComponent': {
      const slug = field.options.componentSlug;
      if (!isRecord(value)) return fail('must be a component instance object');
      if (value._type !== undefined && value._type !== slug) {
        return fail(`must be "${slug}" (the component of this field) or left out`, [...path, '_type']);
      }
      return validateInstance(slug, value, path, path, walk, chain);
    }
    case 'repeater': {
      if (!Array.isArray(value)) return fail('must be an array of objects');
      const { minItems, maxItems, fields } = field.options;
      // An empty list is "no value", as for required; minItems applies once something is entered.
      if (minItems !== undefined && value.length > 0 && value.length < minItems) fail(`must have at least ${minItems} items`);
      if (maxItems !== undefined && value.length > maxItems) fail(`must have at most ${maxItems} items`);
      return value.map((item: unknown, index) => validateFields(fields, item, [...path, index], walk, chain, false));
    }
  }
}

function validateReference(field: FieldOf<'reference'>, value: unknown, path: PathSegment[], walk: Walk): unknown {
  const referenceType = field.options.referenceType ?? 'collectionItem';
  const target = referenceTarget(field.options);
  const checkOne = (item: unknown, itemPath: PathSegment[]): void => {
    let id: string | undefined;
    if (isUuid(item)) {
      id = item;
    } else if (isRecord(item) && '_ref' in item) {
      if (!isUuid(item._ref)) addIssue(walk, [...itemPath, '_ref'], 'must be a UUID');
      else id = item._ref;
      if (item._type !== referenceType) {
        addIssue(walk, [...itemPath, '_type'], `must be "${referenceType}" (the field's referenceType)`);
        id = undefined;
      }
      for (const key of Object.keys(item)) {
        if (key !== '_ref' && key !== '_type') addIssue(walk, [...itemPath, key], 'unknown property of a reference');
      }
    } else {
      addIssue(walk, itemPath, `must be a reference: an id (UUID) or { _ref: <uuid>, _type: "${referenceType}" }`);
      return;
    }
    if (id === undefined) return;
    if (!target) addIssue(walk, itemPath, 'the field has no collectionType to check the reference against');
    else walk.uses.push({ path: itemPath, id, target });
  };
  if (field.options.multiple === true) {
    if (!Array.isArray(value)) {
      addIssue(walk, path, 'must be an array of references (the field is multiple)');
      return value;
    }
    value.forEach((item: unknown, index) => checkOne(item, [...path, index]));
    return value;
  }
  if (Array.isArray(value)) {
    addIssue(walk, path, 'must be a single reference (the field is not multiple)');
    return value;
  }
  checkOne(value, path);
  return value;
}

function validateInstance(
  slug: string,
  instance: Record<string, unknown>,
  path: PathSegment[],
  slugPath: PathSegment[],
  walk: Walk,
  chain: readonly string[],
): Record<string, unknown> {
  if (walk.component === undefined) return { ...instance, _type: slug };
  if (chain.includes(slug)) {
    addIssue(walk, slugPath, `component "${slug}" cannot contain itself`);
    return instance;
  }
  if (chain.length >= MAX_COMPONENT_CHAIN) {
    addIssue(walk, slugPath, `component "${slug}" is nested too deeply (components nest at most 1 level)`);
    return instance;
  }
  const definition = walk.component(slug);
  if (!definition) {
    addIssue(walk, slugPath, `unknown component "${slug}"`);
    return instance;
  }
  return { _type: slug, ...validateFields(definition.fields, instance, path, walk, [...chain, slug], true) };
}

function newWalk(options: ValidateContentOptions, component: ComponentLookup | undefined): Walk {
  return { issues: [], uses: [], requireRequired: options.requireRequired, applyDefaults: options.applyDefaults, component };
}

/**
 * Checks a field's defaultValue with the content rules, without existence checks. Without
 * `component`, component instances are checked for shape only. Paths are relative to the default.
 */
export function checkDefaultValue(field: SchemaField, component?: ComponentLookup, chain: readonly string[] = []): Array<{ path: PathSegment[]; message: string }> {
  if (field.defaultValue === undefined || field.defaultValue === null) return [];
  const walk = newWalk({ requireRequired: false, applyDefaults: false }, component);
  validateValue(field, field.defaultValue, [], walk, chain);
  return walk.issues;
}

/**
 * Validates content against a field list and returns the value to store: defaults applied and
 * nestedComponent instances given their `_type`. Every problem is reported at once, with paths like
 * `fields.sections[1].title`. Existence is checked in batches: every id of the document is collected
 * first, then `existingIds` is called once per distinct target.
 */
export async function validateContent(
  fields: readonly SchemaField[],
  values: unknown,
  lookups: ContentLookups,
  options: ValidateContentOptions,
): Promise<ValidateContentResult> {
  const walk = newWalk(options, (slug) => lookups.component(slug));
  const value = validateFields(fields, values, ['fields'], walk, [], false);
  await checkExistence(walk, lookups);
  return { value, issues: walk.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })) };
}

async function checkExistence(walk: Walk, lookups: ContentLookups): Promise<void> {
  if (walk.uses.length === 0) return;
  const groups = new Map<string, { target: ContentTarget; ids: Set<string> }>();
  for (const use of walk.uses) {
    const key = targetKey(use.target);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { target: use.target, ids: new Set() }));
    // Compared in lower case: PostgreSQL returns UUIDs in lower case whatever case was written.
    group.ids.add(use.id.toLowerCase());
  }
  const existing = new Map<string, Set<string>>();
  // Media: one lookup answers existence, type and size alike, when the caller can give them.
  const mediaInfo = new Map<string, MediaInfo>();
  await Promise.all(
    [...groups].map(async ([key, group]) => {
      if (group.target.kind === 'media' && lookups.media) {
        const infos = await lookups.media([...group.ids]);
        for (const [id, info] of infos) mediaInfo.set(id.toLowerCase(), info);
        existing.set(key, new Set(mediaInfo.keys()));
        return;
      }
      const found = await lookups.existingIds(group.target, [...group.ids]);
      existing.set(key, new Set([...found].map((id) => id.toLowerCase())));
    }),
  );

  for (const use of walk.uses) {
    const id = use.id.toLowerCase();
    if (!existing.get(targetKey(use.target))?.has(id)) {
      addIssue(walk, use.path, `${use.target.kind === 'media' ? 'media' : `referenced ${describeTarget(use.target)}`} "${use.id}" does not exist`);
      continue;
    }
    const info = use.constraints ? mediaInfo.get(id) : undefined;
    if (!info) continue;
    const { allowedMimeTypes, maxFileSize } = use.constraints ?? {};
    if (allowedMimeTypes !== undefined && !mimeTypeAllowed(info.mimeType, allowedMimeTypes)) {
      addIssue(walk, use.path, `media type ${info.mimeType} is not allowed (allowed: ${allowedMimeTypes.join(', ')})`);
    }
    if (maxFileSize !== undefined && info.size > maxFileSize) {
      addIssue(walk, use.path, `media file is ${info.size} bytes, more than the maximum of ${maxFileSize} bytes`);
    }
  }
}

/**
 * Names of required fields that have no value (undefined, null, "" or []), for publishing. Top-level
 * fields are listed by name; required sub-fields of repeater items (and, given `component`, of
 * component instances) by path relative to the content, e.g. `sections[1].title`.
 */
export function requiredMissing(fields: readonly SchemaField[], values: unknown, component?: ComponentLookup): string[] {
  const missing: PathSegment[][] = [];
  const visit = (list: readonly SchemaField[], object: unknown, base: PathSegment[], chain: readonly string[]): void => {
    const record = isRecord(object) ? object : {};
    for (const field of list) {
      const value = ownValue(record, field.name);
      const path = [...base, field.name];
      if (isEmpty(value)) {
        if (field.required === true) missing.push(path);
        continue;
      }
      if (field.type === 'repeater' && Array.isArray(value)) {
        value.forEach((item: unknown, index) => visit(field.options.fields, item, [...path, index], chain));
      }
      if (!component) continue;
      const instances: Array<[PathSegment[], unknown, string | undefined]> =
        field.type === 'nestedComponent'
          ? [[path, value, field.options.componentSlug]]
          : field.type === 'componentPicker' && Array.isArray(value)
            ? value.map((item: unknown, index): [PathSegment[], unknown, string | undefined] => [
                [...path, index],
                item,
                isRecord(item) && typeof item._type === 'string' ? item._type : undefined,
              ])
            : [];
      for (const [instancePath, instance, slug] of instances) {
        if (slug === undefined || chain.includes(slug) || chain.length >= MAX_COMPONENT_CHAIN) continue;
        const definition = component(slug);
        if (definition) visit(definition.fields, instance, instancePath, [...chain, slug]);
      }
    }
  };
  visit(fields, values, [], []);
  return missing.map((path) => formatPath(path));
}

/** A reference or media id found in stored content. */
export type ContentRef =
  | {
      kind: 'reference';
      path: string;
      id: string;
      /** The entity kind (`_type`) and scope the field points at. */
      target: Exclude<ContentTarget, { kind: 'media' }>;
      /** `bare` ids are delivered unresolved; `object` ones (`{ _ref, _type }`) are resolved. */
      form: 'bare' | 'object';
    }
  | { kind: 'media'; path: string; id: string; form: 'uuid' | 'id' | '_media' };

/**
 * Every reference and media id held by stored content, with its path (`fields.hero.image`). Stored
 * content is walked leniently: a value of the wrong shape is skipped, not reported. Used by the
 * delete check (HAS_REFERENCES) and by reference/media resolution on reads.
 */
export function collectRefs(fields: readonly SchemaField[], values: unknown, component: ComponentLookup): ContentRef[] {
  const refs: ContentRef[] = [];
  const visit = (list: readonly SchemaField[], object: unknown, base: PathSegment[], chain: readonly string[]): void => {
    if (!isRecord(object)) return;
    for (const field of list) {
      const value = ownValue(object, field.name);
      if (value === undefined || value === null) continue;
      const path = [...base, field.name];
      switch (field.type) {
        case 'image':
        case 'media': {
          const media = mediaIdOf(value);
          if (media) refs.push({ kind: 'media', path: formatPath(path), ...media });
          break;
        }
        case 'reference': {
          const target = referenceTarget(field.options);
          if (!target || target.kind === 'media') break;
          const items: Array<[PathSegment[], unknown]> = Array.isArray(value)
            ? value.map((item: unknown, index): [PathSegment[], unknown] => [[...path, index], item])
            : [[path, value]];
          for (const [itemPath, item] of items) {
            if (isUuid(item)) refs.push({ kind: 'reference', path: formatPath(itemPath), id: item, target, form: 'bare' });
            else if (isRecord(item) && isUuid(item._ref)) {
              refs.push({ kind: 'reference', path: formatPath(itemPath), id: item._ref, target, form: 'object' });
            }
          }
          break;
        }
        case 'repeater':
          if (Array.isArray(value)) value.forEach((item: unknown, index) => visit(field.options.fields, item, [...path, index], chain));
          break;
        case 'nestedComponent':
        case 'componentPicker': {
          const instances: Array<[PathSegment[], unknown]> =
            field.type === 'nestedComponent'
              ? [[path, isRecord(value) ? { ...value, _type: field.options.componentSlug } : value]]
              : Array.isArray(value)
                ? value.map((item: unknown, index): [PathSegment[], unknown] => [[...path, index], item])
                : [];
          for (const [instancePath, instance] of instances) {
            if (!isRecord(instance) || typeof instance._type !== 'string') continue;
            const slug = instance._type;
            // Guards against a cycle in a schema set that was never checked.
            if (chain.includes(slug) || chain.length >= MAX_COMPONENT_CHAIN) continue;
            const definition = component(slug);
            if (definition) visit(definition.fields, instance, instancePath, [...chain, slug]);
          }
          break;
        }
        default:
          break;
      }
    }
  };
  visit(fields, values, ['fields'], []);
  return refs;
}
