import { eq } from 'drizzle-orm';
import { collectionItems, pages } from '../../db/schema/index.js';
import type { Ctx } from '../context.js';
import { findEntry, type EntryKind, type EntryRef, type EntryRow, type EntryType } from '../content/index.js';
import { isLocaleValues, isRecord } from '../content/localize.js';
import { validationFailed } from '../errors.js';
import { fallbackChain, hasLocale, localizedFieldNames, resolveLocalized } from '../locales/model.js';
import { isUuid } from '../media/resolve.js';
import { languageLabel } from './prompts.js';
import { cutText } from '../../lib/cut-text.js';

/** How much content text an SEO request sends at most (characters, after HTML is stripped). */
export const seoTextBudget = 12_000;

/** The locale an AI request works in: the one asked for, or the project's default. */
export interface AiLocale {
  code: string;
  /** How the language is named to the model: `French (fr)`. */
  label: string;
  isDefault: boolean;
}

export function localeOf(ctx: Ctx, code: string | undefined): AiLocale {
  const pl = ctx.project.locales;
  const wanted = code ?? pl.defaultLocale;
  if (!hasLocale(pl, wanted)) {
    throw validationFailed([{ path: 'locale', message: `unknown locale "${wanted}" (this project has ${pl.locales.map((l) => l.code).join(', ')})` }]);
  }
  const locale = pl.locales.find((l) => l.code === wanted)!;
  return { code: wanted, label: languageLabel(locale.name, wanted), isDefault: wanted === pl.defaultLocale };
}

/** A page or item named by id or slug (`"page": "<slug or id>"`). */
export const refOf = (value: string): EntryRef => (isUuid(value) ? { id: value.toLowerCase() } : { slug: value });

/** Text without its HTML: tags out, the common entities decoded, white space collapsed. */
export function stripHtml(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n) % 0x110000))
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The words of an entry's fields, one line per top-level field (`name: text`), HTML stripped.
 * Only strings count: media and reference ids, component and reference markers (`_type`, `_ref`,
 * `_media`) and numbers, dates and flags are left out.
 */
export function textOfFields(values: Record<string, unknown>, fields: ReadonlyArray<{ name: string; type: string }> = []): string {
  const dates = new Set(fields.filter((f) => f.type === 'date' || f.type === 'datetime').map((f) => f.name));
  const lines: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (dates.has(name)) continue;
    const words = wordsOf(value).join(' ').trim();
    if (words) lines.push(`${name}: ${words}`);
  }
  return lines.join('\n');
}

/** A date or date-time in ISO 8601 form (`2026-01-02`, `2026-01-02T10:00:00Z`). */
const isoDate = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function wordsOf(value: unknown): string[] {
  // Ids and dates (a repeater's or a component's date fields: their definitions are not at hand) are no words.
  if (typeof value === 'string') return isUuid(value) || isoDate.test(value) ? [] : [stripHtml(value)];
  if (Array.isArray(value)) return value.flatMap(wordsOf);
  if (isRecord(value)) return Object.entries(value).filter(([k]) => !k.startsWith('_')).flatMap(([, v]) => wordsOf(v));
  return [];
}

/** The text cut to the budget, at a word where it can be. */
export function cutToBudget(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const cut = cutText(text, budget);
  const space = cut.lastIndexOf(' ');
  return space > budget * 0.8 ? cut.slice(0, space) : cut;
}

export interface LoadedEntry {
  row: EntryRow;
  type: EntryType;
  /** The draft's field values in the locale asked for (its own, then its fallbacks', then the default's). */
  values: Record<string, unknown>;
}

/** A page's or item's draft, read in the locale (localized fields resolved as a locale read resolves them). */
export async function loadEntry(ctx: Ctx, kind: EntryKind, ref: EntryRef, locale: AiLocale, typeSlug?: string): Promise<LoadedEntry> {
  const { row, type } = await findEntry(ctx, kind, ref, typeSlug);
  if (locale.isDefault) return { row, type, values: row.draftContent };
  const table = kind === 'page' ? pages : collectionItems;
  const [stored] = await ctx.db.select({ locales: table.draftLocales }).from(table).where(eq(table.id, row.id));
  const others = isLocaleValues(stored?.locales) ? stored.locales : null;
  const pl = ctx.project.locales;
  const { values } = resolveLocalized(row.draftContent, others, fallbackChain(pl, locale.code), pl.defaultLocale, localizedFieldNames(type.fields));
  return { row, type, values };
}
