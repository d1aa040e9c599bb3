import type { LocaleValues } from '../../db/schema/index.js';
import { CmsError } from '../errors.js';
import { hasLocale, isMultilingual, type ProjectLocales } from '../locales/model.js';
import type { SchemaField } from '../schema/index.js';
import { canonicalJson } from '../../lib/canonical-json.js';
import { ownValue } from '../../lib/unknown-values.js';

/**
 * The write side of localization: which locale a write is in, how a locale's values are merged,
 * which locales a change touched, and what publishing needs in each locale. The default locale's
 * values are the entry's content itself; another locale's live in `*_locales[code]`, holding only
 * localized fields, and only those it has a value for.
 */

/** The `locale` of a write: the project's default when none is given; an unknown one is 400 VALIDATION_FAILED. */
export function writeLocale(pl: ProjectLocales, given: string | undefined): string {
  if (given === undefined) return pl.defaultLocale;
  if (hasLocale(pl, given)) return given;
  const known = pl.locales.map((l) => l.code).join(', ');
  throw new CmsError('VALIDATION_FAILED', `locale: unknown locale "${given}" (this project has ${known})`, [
    { path: 'locale', message: `unknown locale "${given}"; this project has ${known}` },
  ]);
}

/** The codes of every locale of the project, in its order. */
export const everyLocaleCode = (pl: ProjectLocales): string[] => pl.locales.map((l) => l.code);

/** Merges key by key into one locale's values; a key set to null is cleared (the locale then falls back). */
export function mergeOwn(own: Record<string, unknown> | undefined, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...own };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** Other locales' values with one locale's replaced; a locale left with nothing is dropped. */
export function withLocaleValues(others: LocaleValues, code: string, values: Record<string, unknown>): LocaleValues {
  const out: LocaleValues = { ...others };
  if (Object.keys(values).length) out[code] = values;
  else delete out[code];
  return out;
}


const pick = (values: Record<string, unknown>, names: ReadonlySet<string>, keep: boolean): Record<string, unknown> =>
  Object.fromEntries(Object.entries(values).filter(([k]) => names.has(k) === keep));

/** What a change compares: the draft of an entry in every locale. */
export interface LocaleState {
  name: string;
  slug: string;
  content: Record<string, unknown>;
  others: LocaleValues;
  seo: Record<string, unknown>;
  seoOthers: LocaleValues;
}

/**
 * The locales whose values a change touched: a shared field, the name or the slug count as every
 * locale; a localized field or SEO member counts for its locale. `fallback` is answered when
 * nothing differs (a write that changed nothing is still about the locale it was made in).
 */
export function changedLocales(pl: ProjectLocales, before: LocaleState, after: LocaleState, localized: ReadonlySet<string>, fallback: string[]): string[] {
  const all = everyLocaleCode(pl);
  if (before.name !== after.name || before.slug !== after.slug
    || canonicalJson(pick(before.content, localized, false)) !== canonicalJson(pick(after.content, localized, false))) return all;
  const changed = all.filter((code) => {
    if (code === pl.defaultLocale) {
      return canonicalJson(pick(before.content, localized, true)) !== canonicalJson(pick(after.content, localized, true))
        || canonicalJson(before.seo) !== canonicalJson(after.seo);
    }
    return canonicalJson(before.others[code] ?? {}) !== canonicalJson(after.others[code] ?? {})
      || canonicalJson(before.seoOthers[code] ?? {}) !== canonicalJson(after.seoOthers[code] ?? {});
  });
  return changed.length ? changed : fallback;
}

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/**
 * Fields required in every locale (`required`, `localized` and `requiredInAllLocales`) that a
 * locale other than the default has no value for, named `<code>.<field>` (the default's own
 * required fields are checked with the content, as in a project with one locale).
 */
export function missingInLocales(fields: readonly SchemaField[], pl: ProjectLocales, others: LocaleValues): string[] {
  if (!isMultilingual(pl)) return [];
  const everywhere = fields.filter((f) => f.required === true && f.localized === true && f.requiredInAllLocales === true);
  const missing: string[] = [];
  for (const { code } of pl.locales) {
    if (code === pl.defaultLocale) continue;
    for (const f of everywhere) if (isEmpty(ownValue(others[code], f.name))) missing.push(`${code}.${f.name}`);
  }
  return missing;
}

/**
 * Values stored relative to one default locale (`from`: a snapshot taken before the default
 * changed), laid out for another (`to`): `to`'s values become the content, `from`'s go beside the
 * others. Locales the project no longer has are left out.
 */
export function rebaseLocales(
  pl: ProjectLocales, content: Record<string, unknown>, others: LocaleValues, localized: ReadonlySet<string>, from: string,
): { content: Record<string, unknown>; others: LocaleValues } {
  const to = pl.defaultLocale;
  const known = (code: string) => hasLocale(pl, code);
  if (from === to) return { content, others: Object.fromEntries(Object.entries(others).filter(([c]) => known(c))) };
  const all: LocaleValues = { ...others, [from]: pick(content, localized, true) };
  const next: LocaleValues = {};
  for (const [code, v] of Object.entries(all)) if (code !== to && known(code) && Object.keys(v).length) next[code] = v;
  return { content: { ...pick(content, localized, false), ...(all[to] ?? {}) }, others: next };
}
