import { sql, type SQL } from 'drizzle-orm';
import type { LocaleValues } from '../../db/schema/index.js';
import { everyLocale, fallbackChain, parseLocaleParam, resolveLocalized, type ProjectLocales } from '../locales/model.js';
import type { QueryPairs } from './query.js';

/**
 * The read side of localization: what a `?locale=` asks for, and an entry's values in it. Without
 * a `locale` nothing here runs, so a read without one is exactly what it was before locales.
 */
export interface LocaleRead {
  /** The code asked for, or `*` for every locale. */
  code: string;
  project: ProjectLocales;
  /** Where each value is looked for, in order (the code, its fallbacks, the default last); empty for `*`. */
  chain: string[];
}

/** `locale` of a read (the last one given): null when absent, else the code or `*`; unknown → 400 INVALID_QUERY. */
export function localeOfQuery(pl: ProjectLocales, pairs: QueryPairs): LocaleRead | null {
  let raw: string | undefined;
  for (const [k, v] of pairs) if (k === 'locale') raw = v;
  const code = parseLocaleParam(pl, raw);
  if (code === null) return null;
  return { code, project: pl, chain: code === '*' ? [] : fallbackChain(pl, code) };
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Other locales' values as stored (`{ <code>: { <field>: value } }`); anything else reads as none. */
export const isLocaleValues = (v: unknown): v is LocaleValues => isRecord(v) && Object.values(v).every(isRecord);

/** Values of a set of localized names, and which of them came from another locale than the one asked for. */
export interface Localized {
  values: Record<string, unknown>;
  fallbacks: string[];
}

/**
 * One entry's values in the locale read: shared names as stored, localized ones resolved along
 * the chain (or, for `*`, each as `{ <code>: value | null }`, with no fallbacks).
 */
export function localize(read: LocaleRead, own: Record<string, unknown>, others: LocaleValues | null | undefined, localized: ReadonlySet<string>): Localized {
  if (read.code === '*') return { values: inOrderOf(own, everyLocale(own, others, read.project, localized)), fallbacks: [] };
  const { values, fallbacks } = resolveLocalized(own, others, read.chain, read.project.defaultLocale, localized);
  // A field no locale of the chain has a value for is delivered as stored (a stored null stays
  // null, as without a locale), and is no fallback.
  for (const name of localized) if (!Object.hasOwn(values, name) && Object.hasOwn(own, name)) values[name] = own[name];
  return { values: inOrderOf(own, values), fallbacks };
}

/** The values in the order the stored content has them (a value only another locale has, after). */
function inOrderOf(own: Record<string, unknown>, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(own)) if (Object.hasOwn(values, k)) out[k] = values[k];
  for (const [k, v] of Object.entries(values)) if (!Object.hasOwn(out, k)) out[k] = v;
  return out;
}

/**
 * SEO is per locale, member by member: the default's object is the entry's own, each other
 * locale's lies in `seoLocales[code]`. Every member is localized, whatever the schema says.
 */
export function localizeSeo(read: LocaleRead, seo: Record<string, unknown>, seoLocales: LocaleValues | null | undefined, members: readonly string[]): Localized {
  return localize(read, seo, seoLocales, new Set(members));
}

/**
 * The content of the locale read, in SQL, for filters and sorts: the chain's values laid over one
 * another from its end (the default's, usually) to the code itself. A locale's stored values
 * hold only localized fields, and only those it has a value for, so the merge is the resolution.
 * Codes are bound parameters.
 */
export function localizedContentSql(read: LocaleRead, content: SQL, locales: SQL): SQL {
  if (read.code === '*') return content;
  const layers = [...read.chain].reverse().map((code) =>
    (code === read.project.defaultLocale ? sql`${content}` : sql`coalesce(${locales} -> ${code}::text, '{}'::jsonb)`));
  return sql`(${sql.join(layers, sql` || `)})`;
}
