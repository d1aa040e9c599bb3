// Name conversions between ButterCMS API slugs and our identifiers.
// ButterCMS keys are snake_case in practice, but older fields and hand-made keys can contain
// anything ("ButtonURL", "hero-image", "2col"), so every helper here accepts arbitrary input.

import { isSlug } from '../../lib/slug.js';

const FIELD_NAME = /^[a-zA-Z][a-zA-Z0-9_]*$/;

/** Drops diacritics so "Café" keeps its letters instead of losing the "é" to a separator. */
function stripDiacritics(value: string): string {
  return value.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

/** Splits camelCase and acronym boundaries so "ButtonURL" and "heroImage" read as words. */
function splitCamel(value: string): string {
  return value.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
}

export function isValidFieldName(name: string): boolean {
  return FIELD_NAME.test(name);
}

export function isValidSlug(slug: string): boolean {
  return isSlug(slug);
}

/**
 * A slug matching `^[a-z0-9]+(?:-[a-z0-9]+)*$`. Returns `fallback` when nothing usable is left,
 * because callers use the result as an identifier and an empty one would be rejected later.
 */
export function toSlug(value: string, fallback = 'untitled'): string {
  const slug = stripDiacritics(value)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? fallback : slug;
}

/** `two_column_with_image` → `two-column-with-image`; also splits camelCase (`heroImage` → `hero-image`). */
export function toKebabCase(value: string, fallback = 'untitled'): string {
  return toSlug(splitCamel(stripDiacritics(value)), fallback);
}

/**
 * Makes any source key valid for `^[a-zA-Z][a-zA-Z0-9_]*$`. Keys that are already valid come back
 * unchanged, so content keyed by the usual snake_case API slugs needs no renaming.
 */
export function toFieldName(key: string): string {
  if (FIELD_NAME.test(key)) return key;
  let name = stripDiacritics(key).replace(/[^a-zA-Z0-9_]+/g, '_');
  if (name.replace(/_/g, '') === '') return 'field';
  if (!/^[a-zA-Z]/.test(name)) name = `f_${name}`;
  return name;
}

/** "hero_image" → "Hero image", "ButtonURL" → "Button URL". */
export function humanize(key: string): string {
  const words = splitCamel(key)
    .replace(/[_\-\s]+/g, ' ')
    .trim();
  if (words === '') return key;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Returns `base`, or `base<sep>2`, `base<sep>3`, ... whichever is not in `taken`, and records it.
 * Two source keys can collapse onto one name (`hero-image` and `hero_image`), and both must survive.
 */
export function makeUnique(base: string, taken: Set<string>, separator = '_'): string {
  let candidate = base;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${base}${separator}${n}`;
  taken.add(candidate);
  return candidate;
}

/** A stateful allocator for one namespace (the fields of one schema, the slugs of one kind). */
export function createNameAllocator(separator = '_'): (base: string) => string {
  const taken = new Set<string>();
  return (base) => makeUnique(base, taken, separator);
}
