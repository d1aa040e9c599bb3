// Source pages and collection items turned into entries to create, in two passes: pass one
// creates every entry without its references (their targets may not exist yet), pass two sets the
// references to the ids pass one produced and publishes. Pure.

import { convertFields, type ConvertContext } from './convert.js';
import { fieldsOfItem, isHtml, isPlainObject } from './infer.js';
import { humanize, makeUnique, toSlug } from './names.js';
import type { ImportPlan, PlannedType } from './plan.js';
import type { SourceData, SourceItem, SourcePage } from './source.js';
import type { LocaleLookup } from './locales.js';
import type { ImportWarning, ReferenceKind } from './types.js';
import type { SourceTimes } from '../../core/migrations/index.js';
import { cutText } from '../../lib/cut-text.js';

/** The stand-in for a local id until the target exists: `@ref:page:<slug>`, `@ref:item:<id>`. */
const placeholderPrefix = '@ref:';
export const refKey = (kind: ReferenceKind, sourceKey: string): string => `${kind === 'page' ? 'page' : 'item'}:${sourceKey}`;

export interface PreparedEntry {
  /** `page:<slug>` or `item:<id>`: what references name it by. */
  key: string;
  typeSlug: string;
  name: string;
  slug: string;
  /** Converted content, references as placeholders. */
  content: Record<string, unknown>;
  /** A published entry's newer draft in the source (converted the same way), saved over it after. */
  draftContent?: Record<string, unknown> | undefined;
  seo?: Record<string, unknown> | undefined;
  status: 'draft' | 'published';
  publishedAt?: string | undefined;
  /** A draft the source has scheduled: when it is to go live (scheduled here too, when in the future). */
  publishAt?: string | undefined;
  /** The source's own times, kept over the import's (see `sourceTimes`). */
  sourceTimes?: SourceTimes | undefined;
  hasRefs: boolean;
  /** Localized fields' values in the other locales (references as placeholders), by code; a page's SEO in them. */
  locales?: Record<string, Record<string, unknown>> | undefined;
  seoLocales?: Record<string, Record<string, unknown>> | undefined;
  /**
   * Set by `orderForCreation`: created without references (as a draft) because a target is created
   * only later (a cycle, or a page referenced from an item); pass two completes it.
   */
  deferred?: boolean;
}

export interface PrepareContext {
  plan: ImportPlan;
  /** Our media id of a source URL, once imported. */
  mediaIdForUrl: (url: string) => string | null | undefined;
  /** Our file URL of a source URL, for HTML that embeds it. */
  fileUrlFor: (url: string) => string | null | undefined;
  /** Whether the import creates this entity at all (else a reference to it is dropped). */
  willExist: (key: string) => boolean;
  /** An import in several locales: where each locale's values come from and go. */
  locales?: PrepareLocales | undefined;
}

export interface PrepareLocales {
  /** The locale whose values are the entry's own content. */
  base: string;
  /** Locales stored under their own code. */
  own: readonly string[];
  lookup: LocaleLookup;
}

const isRef = (v: unknown): v is { _ref: string; _type: string } =>
  isPlainObject(v) && typeof v._ref === 'string' && typeof v._type === 'string' && Object.keys(v).length === 2;

export function containsRef(value: unknown): boolean {
  if (isRef(value)) return true;
  if (Array.isArray(value)) return value.some(containsRef);
  if (isPlainObject(value)) return Object.values(value).some(containsRef);
  return false;
}

/** Keys (`page:<slug>`, `item:<id>`) of every placeholder reference in the content. */
export function refTargets(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (isRef(value)) {
    if (value._ref.startsWith(placeholderPrefix)) out.add(value._ref.slice(placeholderPrefix.length));
  } else if (Array.isArray(value)) {
    for (const v of value) refTargets(v, out);
  } else if (isPlainObject(value)) {
    for (const v of Object.values(value)) refTargets(v, out);
  }
  return out;
}

/**
 * The order to create entries in so that each one's references point at entries created before
 * it (earlier kinds, or earlier in this list), so that it is written whole in one pass. Entries in
 * a reference cycle, or pointing at a kind created later, are deferred: created without their
 * references first, completed by pass two.
 */
export function orderForCreation(entries: readonly PreparedEntry[], createdBefore: ReadonlySet<string>): PreparedEntry[] {
  const own = new Set(entries.map((e) => e.key));
  const placed = new Set<string>();
  const ordered: PreparedEntry[] = [];
  let remaining: Array<{ entry: PreparedEntry; deps: string[] }> = [];
  for (const entry of entries) {
    const targets = [...refTargets([entry.content, entry.locales ?? {}])];
    if (targets.some((t) => !own.has(t) && !createdBefore.has(t)) || targets.includes(entry.key)) {
      ordered.push({ ...entry, deferred: true });
      placed.add(entry.key);
    } else {
      remaining.push({ entry, deps: targets.filter((t) => own.has(t)) });
    }
  }
  while (remaining.length) {
    const next: typeof remaining = [];
    for (const r of remaining) {
      if (r.deps.every((d) => placed.has(d))) {
        ordered.push({ ...r.entry, deferred: false });
        placed.add(r.entry.key);
      } else {
        next.push(r);
      }
    }
    if (next.length === remaining.length) {
      // Only cycles are left: defer the first of them, which frees the others in turn.
      const [first] = next.splice(0, 1);
      ordered.push({ ...first!.entry, deferred: true });
      placed.add(first!.entry.key);
    }
    remaining = next;
  }
  return ordered;
}

/** The content without any reference: single ones removed, lists of them emptied. */
export function stripRefs(value: Record<string, unknown>): Record<string, unknown> {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.filter((x) => !isRef(x)).map(walk);
    if (isPlainObject(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) if (!isRef(x)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  const out = walk(value);
  return isPlainObject(out) ? out : {};
}

/**
 * Placeholders replaced by local ids; a reference whose target was not created is dropped (and
 * reported), the way the converter drops references to unknown entities.
 */
export function resolveRefs(value: unknown, idOf: (key: string) => string | undefined, where: string, warnings: ImportWarning[]): unknown {
  const walk = (v: unknown, path: string): unknown => {
    if (isRef(v)) {
      if (!v._ref.startsWith(placeholderPrefix)) return v;
      const key = v._ref.slice(placeholderPrefix.length);
      const id = idOf(key);
      if (!id) {
        warnings.push({ level: 'warning', message: `${path}: the referenced ${key} was not imported; reference dropped` });
        return undefined;
      }
      return { _ref: id, _type: v._type };
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}[${i}]`)).filter((x) => x !== undefined);
    if (isPlainObject(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const r = walk(x, `${path}.${k}`);
        if (r !== undefined) out[k] = r;
      }
      return out;
    }
    return v;
  };
  return walk(value, where);
}

const urlToken = /(?:https?:)?\/\/[^\s"'<>()]+/g;

/** Media URLs inside HTML pointed at the imported files, so content no longer needs the source's CDN. */
export function rewriteHtmlMedia(value: unknown, fileUrlFor: (url: string) => string | null | undefined): unknown {
  if (typeof value === 'string') return rewriteHtmlText(value, fileUrlFor);
  if (Array.isArray(value)) return value.map((v) => rewriteHtmlMedia(v, fileUrlFor));
  if (isPlainObject(value)) return rewriteHtmlMediaIn(value, fileUrlFor);
  return value;
}

/** One string: HTML has its media URLs rewritten, anything else stays as it is. */
export function rewriteHtmlText(value: string, fileUrlFor: (url: string) => string | null | undefined): string {
  if (!isHtml(value)) return value;
  return value.replace(urlToken, (m) => fileUrlFor(m) ?? fileUrlFor(m.replace(/&amp;/g, '&')) ?? m);
}

/** Every value of an object, as `rewriteHtmlMedia` does. */
export function rewriteHtmlMediaIn(value: Record<string, unknown>, fileUrlFor: (url: string) => string | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = rewriteHtmlMedia(v, fileUrlFor);
  return out;
}

function convert(source: Record<string, unknown>, type: PlannedType, ctx: PrepareContext, where: string, warnings: ImportWarning[]) {
  const convertCtx: ConvertContext = {
    mediaIdForUrl: ctx.mediaIdForUrl,
    localIdFor: (kind, sourceKey) => {
      const key = refKey(kind, sourceKey);
      return ctx.willExist(key) ? `${placeholderPrefix}${key}` : null;
    },
    components: ctx.plan.inferredComponents,
    where,
  };
  const { value, warnings: w } = convertFields(source, type.plan, convertCtx);
  warnings.push(...w);
  return rewriteHtmlMediaIn(value, ctx.fileUrlFor);
}

const clip = (s: string, max: number) => (s.length > max ? cutText(s, max).trimEnd() : s);
const plainText = (s: string) => s.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();

const nameKeys = ['name', 'title', 'label', 'headline', 'heading', 'question'];

/** Items have no name or slug in ButterCMS: the first name-like text names them. */
export function itemName(fields: Record<string, unknown>, type: PlannedType, id: string): string {
  for (const key of nameKeys) {
    const v = fields[key];
    if (typeof v === 'string' && plainText(v) !== '') return clip(plainText(v), 255);
  }
  for (const p of type.plan) {
    const v = fields[p.sourceKey];
    if (p.type === 'text' && typeof v === 'string' && v.trim() !== '') return clip(v.trim(), 255);
  }
  return `${humanize(type.source)} ${id}`;
}

/** Page SEO from the usual ButterCMS conventions: an `seo` component, or `seo_title`-style fields. */
export function pageSeo(fields: Record<string, unknown>): Record<string, unknown> | undefined {
  const seo = isPlainObject(fields.seo) ? fields.seo : {};
  const pick = (...values: unknown[]) => values.find((v): v is string => typeof v === 'string' && v.trim() !== '');
  const title = pick(seo.title, seo.meta_title, fields.seo_title, fields.meta_title);
  const description = pick(seo.description, seo.meta_description, fields.meta_description, fields.seo_description);
  if (!title && !description) return undefined;
  return {
    ...(title ? { metaTitle: clip(title.trim(), 255) } : {}),
    ...(description ? { metaDescription: clip(description.trim(), 1000) } : {}),
  };
}

const validTime = (v: string | null | undefined): string | undefined => (v && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : undefined);

/**
 * An entry's times as the source has them: created (ButterCMS pages and items have no `created`:
 * then the earliest time the source shows, its `published` or `updated`), and last updated.
 * Collection items have no times at all in the read API, and keep the import's.
 */
export function sourceTimes(times: { created?: string | null; published?: string | null; updated?: string | null }): SourceTimes | undefined {
  const updatedAt = validTime(times.updated);
  const shown = [validTime(times.published), updatedAt].filter((t): t is string => t !== undefined).sort();
  const createdAt = validTime(times.created) ?? shown[0];
  if (!createdAt && !updatedAt) return undefined;
  return { ...(createdAt ? { createdAt } : {}), ...(updatedAt ? { updatedAt } : {}) };
}

/** The localized fields' values of each locale stored under its own code (and a page's SEO in each). */
function otherLocales(
  type: PlannedType, ctx: PrepareContext, where: string, warnings: ImportWarning[], valuesIn: (code: string) => Record<string, unknown> | undefined, seo: boolean,
): Pick<PreparedEntry, 'locales' | 'seoLocales'> {
  const l = ctx.locales;
  if (!l) return {};
  const localized = type.fields.filter((f) => f.localized === true).map((f) => f.name);
  const locales: Record<string, Record<string, unknown>> = {};
  const seoLocales: Record<string, Record<string, unknown>> = {};
  for (const code of l.own) {
    const values = valuesIn(code);
    if (!values) continue;
    if (localized.length) {
      const converted = convert(values, type, ctx, `${where} (locale ${code})`, warnings);
      const own = Object.fromEntries(localized.filter((n) => converted[n] !== undefined).map((n) => [n, converted[n]]));
      if (Object.keys(own).length) locales[code] = own;
    }
    const pageSeoValues = seo ? pageSeo(values) : undefined;
    if (pageSeoValues) seoLocales[code] = pageSeoValues;
  }
  return {
    ...(Object.keys(locales).length ? { locales } : {}),
    ...(Object.keys(seoLocales).length ? { seoLocales } : {}),
  };
}

const hasAnyRef = (content: Record<string, unknown>, more: Pick<PreparedEntry, 'locales'>) => containsRef(content) || containsRef(more.locales ?? {});

export function prepareItems(
  key: string, items: readonly SourceItem[], ctx: PrepareContext, warnings: ImportWarning[], drafts: SourceData['itemDrafts'],
): PreparedEntry[] {
  const type = ctx.plan.collectionOf(key);
  if (!type) return [];
  const slugs = new Set<string>();
  return items.map((item) => {
    const id = String(item.meta.id);
    const where = `collection ${key} item ${id}`;
    const l = ctx.locales;
    const fields = (l ? l.lookup.item(l.base, key, item) : undefined) ?? fieldsOfItem(item);
    const content = convert(fields, type, ctx, where, warnings);
    const name = itemName(fields, type, id);
    const more = otherLocales(type, ctx, where, warnings, (code) => l?.lookup.item(code, key, item), false);
    // What the source serves without `preview` is published; what only its preview serves, a draft.
    const draftOnly = drafts.draftOnly.has(id);
    const edit = drafts.edits.get(id);
    return {
      key: refKey('collectionItem', id),
      typeSlug: type.slug,
      name,
      slug: makeUnique(clip(toSlug(name, `item-${id}`), 200).replace(/-+$/, ''), slugs, '-'),
      content,
      ...(edit && !draftOnly ? { draftContent: convert(fieldsOfItem(edit), type, ctx, `${where} (draft)`, warnings) } : {}),
      status: draftOnly ? 'draft' as const : 'published' as const,
      hasRefs: hasAnyRef(content, more),
      ...more,
    };
  });
}

export function preparePages(pages: readonly SourcePage[], ctx: PrepareContext, warnings: ImportWarning[]): PreparedEntry[] {
  const slugs = new Set<string>();
  const out: PreparedEntry[] = [];
  for (const page of pages) {
    const type = ctx.plan.pageTypeOf(page);
    if (!type) continue;
    const where = `page ${page.page_type ?? '*'}/${page.slug}`;
    const l = ctx.locales;
    const base = (l ? l.lookup.page(l.base, page) : undefined) ?? page;
    const content = convert(base.fields, type, ctx, where, warnings);
    const more = otherLocales(type, ctx, where, warnings, (code) => l?.lookup.page(code, page)?.fields, true);
    // What the read API serves is published; newer API versions also say draft or scheduled.
    const draft = page.status === 'draft' || page.status === 'scheduled';
    const publishAt = page.status === 'scheduled' ? validTime(page.scheduled) : undefined;
    if (page.status === 'scheduled') {
      warnings.push({ level: 'info', message: `page ${page.slug}: scheduled in the source; imported as a draft${publishAt ? ` scheduled to be published at ${publishAt} (if that is still to come)` : ''}` });
    }
    out.push({
      key: refKey('page', page.slug),
      typeSlug: type.slug,
      name: clip(page.name.trim() || page.slug, 255),
      slug: makeUnique(clip(toSlug(page.slug, 'page'), 200).replace(/-+$/, ''), slugs, '-'),
      content,
      ...(page.draftFields && !draft ? { draftContent: convert(page.draftFields, type, ctx, `${where} (draft)`, warnings) } : {}),
      seo: pageSeo(base.fields),
      status: draft ? 'draft' : 'published',
      publishedAt: draft ? undefined : validTime(page.published),
      ...(publishAt ? { publishAt } : {}),
      sourceTimes: sourceTimes(page),
      hasRefs: hasAnyRef(content, more),
      ...more,
    });
  }
  return out;
}
