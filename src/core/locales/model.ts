import type { LocaleValues } from '../../db/schema/index.js';
import { CmsError } from '../errors.js';
import type { SchemaField } from '../schema/index.js';
import { ownValue } from '../../lib/unknown-values.js';

/** A locale of a project: its code, a name for people, and where its missing values come from. */
export interface Locale {
  code: string;
  name: string;
  /** The locale a missing value is read from next (then that one's fallback, and the default last). */
  fallback: string | null;
}

/** What a project knows of languages: its locales (at least one) and which of them is the default. */
export interface ProjectLocales {
  defaultLocale: string;
  locales: Locale[];
}

/** Every project starts with this, unless `cms init` is told otherwise. */
export const initialLocales: ProjectLocales = { defaultLocale: 'en', locales: [{ code: 'en', name: 'English', fallback: null }] };

/**
 * BCP 47 tags as the web uses them: a language of 2–3 letters, then subtags of 2–8 letters or
 * digits (`en`, `fr`, `pt-BR`, `zh-Hant-TW`, `es-419`). Codes compare exactly as written.
 */
export const localeCodePattern = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard' });

/**
 * A locale's English name, as the Unicode CLDR gives it (`fr` French, `de-DE` German (Germany),
 * `es-419` Spanish (Latin America)); a code whose language English has no name for is named by
 * the code itself.
 */
export function defaultLocaleName(code: string): string {
  const language = code.split('-')[0] ?? code;
  try {
    if (languageNames.of(language) === language) return code;
    return languageNames.of(code) ?? code;
  } catch {
    // A code Intl does not take as a language tag (the pattern above is looser than BCP 47).
    return code;
  }
}

export const isMultilingual = (pl: ProjectLocales): boolean => pl.locales.length > 1;

export const hasLocale = (pl: ProjectLocales, code: string): boolean => pl.locales.some((l) => l.code === code);

/**
 * The locales a value is looked for in, in order: the locale itself, its fallback, that one's
 * fallback, …, and the default last. A locale never appears twice (a cycle stops the chain).
 */
export function fallbackChain(pl: ProjectLocales, code: string): string[] {
  const byCode = new Map(pl.locales.map((l) => [l.code, l]));
  const chain: string[] = [];
  let next: string | null = code;
  while (next && !chain.includes(next) && byCode.has(next)) {
    chain.push(next);
    next = byCode.get(next)!.fallback;
  }
  if (!chain.includes(pl.defaultLocale)) chain.push(pl.defaultLocale);
  return chain;
}

/**
 * The `locale` of a read: none (the default locale, today's answer exactly), `*` (every locale),
 * or one of the project's codes. Anything else is 400 INVALID_QUERY.
 */
export function parseLocaleParam(pl: ProjectLocales, value: string | undefined): string | null {
  if (value === undefined) return null;
  if (value === '*' || hasLocale(pl, value)) return value;
  throw new CmsError('INVALID_QUERY', `locale: unknown locale "${value}" (this project has ${pl.locales.map((l) => l.code).join(', ')}; or * for all)`, {
    parameter: 'locale', reason: `unknown locale; known: ${pl.locales.map((l) => l.code).join(', ')}, *`,
  });
}

/** The top-level fields of a type whose value is per locale. */
export const localizedFieldNames = (fields: readonly SchemaField[]): Set<string> =>
  new Set(fields.filter((f) => f.localized === true).map((f) => f.name));

const present = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * An entry's values in one locale: shared fields as stored, each localized field from the first
 * locale of the chain that has a value. `fallbacks` names the localized fields whose value came
 * from another locale than the first of the chain (a field no locale has stays absent, and is
 * not a fallback).
 */
export function resolveLocalized(
  content: Record<string, unknown>, others: LocaleValues | null | undefined, chain: readonly string[], defaultLocale: string,
  localized: ReadonlySet<string>,
): { values: Record<string, unknown>; fallbacks: string[] } {
  const values: Record<string, unknown> = {};
  const fallbacks: string[] = [];
  for (const [k, v] of Object.entries(content)) if (!localized.has(k)) values[k] = v;
  for (const name of localized) {
    for (const code of chain) {
      const v = ownValue(code === defaultLocale ? content : others?.[code], name);
      if (!present(v)) continue;
      values[name] = v;
      if (code !== chain[0]) fallbacks.push(name);
      break;
    }
  }
  return { values, fallbacks };
}

/** `locale=*`: each localized field as `{ <code>: value or null }` over every locale of the project. */
export function everyLocale(
  content: Record<string, unknown>, others: LocaleValues | null | undefined, pl: ProjectLocales, localized: ReadonlySet<string>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(content)) if (!localized.has(k)) values[k] = v;
  for (const name of localized) {
    const byCode: Record<string, unknown> = {};
    for (const { code } of pl.locales) {
      const v = ownValue(code === pl.defaultLocale ? content : others?.[code], name);
      byCode[code] = present(v) ? v : null;
    }
    values[name] = byCode;
  }
  return values;
}

/** Splits written values into the shared ones and the localized ones. */
export function splitLocalized(values: Record<string, unknown>, localized: ReadonlySet<string>): { shared: Record<string, unknown>; own: Record<string, unknown> } {
  const shared: Record<string, unknown> = {};
  const own: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) (localized.has(k) ? own : shared)[k] = v;
  return { shared, own };
}
