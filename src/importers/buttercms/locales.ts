// An import in several locales (`--locales en,fr`, docs/localization.md "Importing from ButterCMS").
// ButterCMS keeps one schema and one entry per page or item, with a version of its values in each
// locale of the account, read with the `locale` parameter. The first listed locale is read as the
// import has always read (discovery included); the others are read afterwards, page type by page
// type and collection by collection, through the same client (same spacing, no retries). Pages are
// matched across locales by page type and slug, items by their `meta.id`. The blog is read once,
// without a locale: ButterCMS's posts take no `locale` parameter.
//
// A field is localized when its values differ between locales in any entry; the others stay
// shared. Which locale's values are the entries' own content (the project's default locale) is
// decided from the project: see `decideLocales`.

import { SourceRequestError, sourcePageSizes, type ButterClient } from './client.js';
import { fieldsOfItem, isCollectionItemObject } from './infer.js';
import type { ImportPlan, PlannedType } from './plan.js';
import { collectionArray, contentReadQuery, dataArray, toPage, type LocaleVariant, type ReadProgress, type SourceData, type SourceItem, type SourcePage } from './source.js';
import type { ImportWarning } from './types.js';

/** What the project has of locales, as the probe answers it. */
export interface ProjectLocaleState {
  defaultLocale: string;
  locales: ReadonlyArray<{ code: string }>;
  hasContent: boolean;
}

export interface LocaleDecision {
  /** As listed; the first was read as the source's default. */
  listed: string[];
  /** The project's default locale once the import is in. */
  defaultLocale: string;
  /** Set when the import makes the first listed locale the default (an empty project with only `en`). */
  setDefault?: string;
  /** Listed locales the project lacks: added by the schema step. */
  add: string[];
  /** The locale whose values become the entries' own content (the default's values). */
  base: string;
  /** Locales whose values are stored under their own code (every listed one but the default). */
  own: string[];
}

/**
 * Where each listed locale goes. A project with nothing in it and only `en` (a new project) takes
 * the first listed locale as its default. Any other project keeps its default: when the default is
 * listed, its values are the entries' content and every other listed locale is stored under its
 * code; when it is not listed, the first listed locale's values are stored under its own code
 * and are also the entries' content (an entry always has values in the default locale, which
 * every fallback ends at), until someone writes the default's own.
 */
export function decideLocales(listed: readonly string[], project: ProjectLocaleState): LocaleDecision {
  const first = listed[0]!;
  const fresh = !project.hasContent && project.defaultLocale === 'en' && project.locales.length === 1 && project.locales[0]?.code === 'en';
  const defaultLocale = fresh ? first : project.defaultLocale;
  return {
    listed: [...listed],
    defaultLocale,
    ...(fresh && first !== project.defaultLocale ? { setDefault: first } : {}),
    add: listed.filter((c) => !project.locales.some((l) => l.code === c)),
    base: listed.includes(defaultLocale) ? defaultLocale : first,
    own: listed.filter((c) => c !== defaultLocale),
  };
}

/** ButterCMS refused a locale: 400 on a read that named one. */
export class LocaleRefused extends Error {
  constructor(readonly locale: string, readonly failure: SourceRequestError) {
    super(`${failure.message}: the account has no locale "${locale}" (list its locale API slugs, from ButterCMS's ` +
      'Settings → Localization, with --locales). Nothing was written');
  }
}

/** A read in a locale that ButterCMS answered 400 for is that locale being unknown to the account. */
export function asLocaleFailure(e: unknown, locale: string): unknown {
  return e instanceof SourceRequestError && e.status === 400 ? new LocaleRefused(locale, e) : e;
}

export const pageKeyOf = (page: Pick<SourcePage, 'page_type' | 'slug'>): string => `${page.page_type ?? '*'}/${page.slug}`;

/**
 * The same pages and collections as the first locale's read, read in each other locale. Nothing
 * new is discovered here: the first read found what there is. A page type or collection that a
 * locale answers 404 for has no entries in it (a warning).
 */
export async function readOtherLocales(
  client: ButterClient, source: SourceData, codes: readonly string[], onProgress?: (p: ReadProgress) => Promise<void>,
): Promise<{ variants: LocaleVariant[]; warnings: ImportWarning[] }> {
  const warnings: ImportWarning[] = [];
  const hasSingles = source.pages.some((p) => p.page_type === null);
  const types = [...new Set(source.pages.map((p) => p.page_type).filter((t): t is string => t !== null))];
  const keys = [...source.collections.keys()];
  const lists: Array<{ path: string; what: string; kind: 'pages' | 'singles' | 'collection'; key?: string }> = [
    ...(hasSingles ? [{ path: '/pages/*/', what: 'single pages', kind: 'singles' as const }] : []),
    ...types.map((t) => ({ path: `/pages/${encodeURIComponent(t)}/`, what: `page type ${t}`, kind: 'pages' as const, key: t })),
    ...keys.map((k) => ({ path: `/content/${encodeURIComponent(k)}/`, what: `collection ${k}`, kind: 'collection' as const, key: k })),
  ];
  const total = lists.length * codes.length;
  let done = 0;
  const variants: LocaleVariant[] = [];
  for (const code of codes) {
    const variant: LocaleVariant = { code, pages: [], collections: new Map() };
    for (const list of lists) {
      const progress = async () => { await onProgress?.({ done, total: total + 1, requests: client.requestCount }); };
      try {
        if (list.kind === 'collection') {
          const raw = await client.list(list.path, { ...contentReadQuery, locale: code }, sourcePageSizes.collections, collectionArray(list.key!), progress);
          variant.collections.set(list.key!, raw.filter((v): v is SourceItem => isCollectionItemObject(v)));
        } else {
          const raw = await client.list(list.path, { ...contentReadQuery, locale: code }, sourcePageSizes.pages, dataArray, progress);
          for (const v of raw) {
            const page = toPage(v);
            if (!page) continue;
            if (list.kind === 'singles') page.page_type = null;
            else page.page_type ??= list.key!;
            variant.pages.push(page);
          }
        }
      } catch (e) {
        if (e instanceof SourceRequestError && e.failure === 'not-found') {
          warnings.push({ level: 'warning', message: `${list.what}: the source has none in locale ${code}; its entries keep their other locales' values there` });
        } else {
          throw asLocaleFailure(e, code);
        }
      }
      done += 1;
    }
    variants.push(variant);
  }
  return { variants, warnings };
}

/** One entity's raw values in a locale: the first locale's from the read itself, the others' from their variant. */
export interface LocaleLookup {
  first: string;
  page(code: string, page: SourcePage): SourcePage | undefined;
  item(code: string, collection: string, item: SourceItem): Record<string, unknown> | undefined;
}

export function localeLookup(listed: readonly string[], variants: readonly LocaleVariant[]): LocaleLookup {
  const pages = new Map<string, Map<string, SourcePage>>();
  const items = new Map<string, Map<string, SourceItem>>();
  for (const v of variants) {
    pages.set(v.code, new Map(v.pages.map((p) => [pageKeyOf(p), p])));
    const byId = new Map<string, SourceItem>();
    for (const [key, list] of v.collections) for (const item of list) byId.set(`${key}/${String(item.meta.id)}`, item);
    items.set(v.code, byId);
  }
  const first = listed[0]!;
  return {
    first,
    page: (code, page) => (code === first ? page : pages.get(code)?.get(pageKeyOf(page))),
    item: (code, collection, item) => {
      if (code === first) return fieldsOfItem(item);
      const found = items.get(code)?.get(`${collection}/${String(item.meta.id)}`);
      return found ? fieldsOfItem(found) : undefined;
    },
  };
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Marks `localized: true` on each top-level field whose values differ between locales in any
 * entry of its type (every listed locale compared with the first's). Answers, by type, the names
 * it marked. Fields equal in every locale stay shared.
 */
export function markLocalized(plan: ImportPlan, source: SourceData, lookup: LocaleLookup, listed: readonly string[]): Map<PlannedType, string[]> {
  const differing = new Map<PlannedType, Set<string>>();
  const note = (type: PlannedType | undefined, values: Record<string, unknown>, other: Record<string, unknown> | undefined) => {
    if (!type || !other) return;
    for (const p of type.plan) {
      if (same(values[p.sourceKey], other[p.sourceKey])) continue;
      const set = differing.get(type) ?? new Set<string>();
      set.add(p.name);
      differing.set(type, set);
    }
  };
  const others = listed.slice(1);
  for (const page of source.pages) {
    const type = plan.pageTypeOf(page);
    for (const code of others) note(type, page.fields, lookup.page(code, page)?.fields);
  }
  for (const [key, list] of source.collections) {
    const type = plan.collectionOf(key);
    for (const item of list) {
      const values = fieldsOfItem(item);
      for (const code of others) note(type, values, lookup.item(code, key, item));
    }
  }
  const out = new Map<PlannedType, string[]>();
  for (const [type, names] of differing) {
    type.fields = type.fields.map((f) => (names.has(f.name) ? { ...f, localized: true } : f));
    out.set(type, type.fields.filter((f) => names.has(f.name)).map((f) => f.name));
  }
  return out;
}

/** `page type landing-page: headline, intro; collection people: role` (or none). */
export function describeLocalized(marked: Map<PlannedType, string[]>): string {
  const parts = [...marked].map(([t, names]) => `${t.kind === 'pageTypes' ? 'page type' : 'collection'} ${t.slug}: ${names.join(', ')}`);
  return parts.length ? parts.join('; ') : 'none (every field has the same values in every locale)';
}
