import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { collectionItems, collectionTypes, pages, pageTypes } from '../../db/schema/index.js';
import { actorLabel } from '../actor.js';
import { holdForDelete } from '../reference-locks.js';
import type { Ctx } from '../context.js';
import { CmsError, type Issue } from '../errors.js';
import { requiredMissing, validateContent } from '../schema/index.js';
import { slugPattern } from '../slug.js';
import type { LocaleValues } from '../../db/schema/index.js';
import { isMultilingual, localizedFieldNames, splitLocalized, type ProjectLocales } from '../locales/model.js';
import { createContentLookups } from './lookups.js';
import { changedLocales, everyLocaleCode, mergeOwn, missingInLocales, withLocaleValues, writeLocale, type LocaleState } from './locale-writes.js';
import { seoWriteSchema } from './shapes.js';
import { storeOf, type EntryKind, type EntryRef, type EntryRow, type EntryStore, type EntryType, type WriteShapeOf } from './store.js';

export type WriteShape = WriteShapeOf<EntryKind>;

/** 1 MB: 1,048,576 bytes of the JSON-serialised `fields`; a larger document is refused. */
export const maxFieldsBytes = 1_048_576;

/** The write shape; in a project with several locales it carries every locale's values. */
export function toWriteShape<K extends EntryKind>(kind: K, row: EntryRow, typeSlug: string, pl: ProjectLocales): WriteShapeOf<K> {
  return storeOf(kind).shape(row, typeSlug, isMultilingual(pl));
}

/** An entry's draft in every locale, for telling which locales a change touched. */
const stateOf = (row: EntryRow): LocaleState => ({
  name: row.name, slug: row.slug, content: row.draftContent, others: row.draftLocales, seo: row.seo, seoOthers: row.seoLocales,
});

const slugMessage = 'must be lowercase letters, digits and single hyphens (like "my-page")';
const nameMessage = 'must be 1 to 255 characters';

/**
 * The problems of the name and slug a write gives (each checked only when given), reported with
 * the content's own: a write answers every problem of its body at once.
 */
function nameAndSlugIssues(input: { name?: string | undefined; slug?: string | undefined }): Issue[] {
  const issues: Issue[] = [];
  // Characters are counted as code points: an emoji is one character, not two UTF-16 units.
  const nameLength = input.name === undefined ? 0 : input.name.length <= 255 ? input.name.length : [...input.name].length;
  if (input.name !== undefined && (nameLength < 1 || nameLength > 255)) issues.push({ path: 'name', message: nameMessage });
  if (input.slug !== undefined && input.slug.length > 255) issues.push({ path: 'slug', message: 'must be at most 255 characters' });
  else if (input.slug !== undefined && !slugPattern.test(input.slug)) issues.push({ path: 'slug', message: slugMessage });
  return issues;
}

function checkSize(fields: Record<string, unknown>): void {
  const bytes = Buffer.byteLength(JSON.stringify(fields), 'utf8');
  if (bytes > maxFieldsBytes) {
    throw new CmsError('PAYLOAD_TOO_LARGE', `Content fields are ${bytes} bytes; the limit is ${maxFieldsBytes} bytes (1 MB)`, { bytes, limit: maxFieldsBytes });
  }
}

/** The values validated (defaults applied on creation); their problems are added to `found`. */
async function validateFields(ctx: Ctx, type: EntryType, values: unknown, applyDefaults: boolean, found: Issue[]): Promise<Record<string, unknown>> {
  const lookups = await createContentLookups(ctx.db, ctx.project.id, type.fields);
  const { value, issues } = await validateContent(type.fields, values ?? {}, lookups, { requireRequired: false, applyDefaults });
  found.push(...issues);
  return value;
}

/** Every problem of a write's body, at once: the name and slug, the content and the SEO. */
const contentInvalid = (issues: Issue[]) => new CmsError('VALIDATION_FAILED',
  `${issues.some((i) => i.path !== 'name' && i.path !== 'slug') ? 'Content validation failed: ' : ''}${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);

/** Throws every problem found, if any. */
function refuseIfInvalid(found: Issue[]): void {
  if (found.length) throw contentInvalid(found);
}

/** The SEO object validated; its problems are added to `found`. */
async function validateSeo(ctx: Ctx, seo: unknown, found: Issue[]): Promise<Record<string, unknown>> {
  const parsed = seoWriteSchema.safeParse(seo ?? {});
  if (!parsed.success) {
    found.push(...parsed.error.issues.map((i) => ({ path: ['seo', ...i.path].join('.'), message: i.message })));
    return {};
  }
  const value: Record<string, unknown> = parsed.data;
  const { ogImageId } = parsed.data;
  if (typeof ogImageId === 'string') {
    const lookups = await createContentLookups(ctx.db, ctx.project.id, []);
    const exists = await lookups.existingIds({ kind: 'media' }, [ogImageId]);
    if (!exists.size) found.push({ path: 'seo.ogImageId', message: 'no media with this id' });
  }
  return value;
}

/** Merges key by key; a key set to null clears it. */
function mergeKeys(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/**
 * What publishing needs: the required fields in the default locale, and in every other locale
 * the fields marked `requiredInAllLocales` (named `<code>.<field>`); then every locale's values
 * valid still.
 */
async function requirePublishable(ctx: Ctx, type: EntryType, content: Record<string, unknown>, others: LocaleValues): Promise<void> {
  const lookups = await createContentLookups(ctx.db, ctx.project.id, type.fields);
  const missing = [...requiredMissing(type.fields, content, lookups.component), ...missingInLocales(type.fields, ctx.project.locales, others)];
  if (missing.length) {
    throw new CmsError('REQUIRED_FIELDS_MISSING', `Required fields are missing: ${missing.join(', ')}`, { fields: missing });
  }
  // What was valid when saved may point at something deleted since; publish checks again.
  const { issues } = await validateContent(type.fields, content, lookups, { requireRequired: true, applyDefaults: false });
  const localized = localizedFieldNames(type.fields);
  for (const [code, values] of Object.entries(others)) {
    const own = await validateContent(type.fields.filter((f) => localized.has(f.name)), values, lookups, { requireRequired: false, applyDefaults: false });
    issues.push(...own.issues.map((i) => ({ ...i, path: `${code}.${i.path}` })));
  }
  if (issues.length) throw contentInvalid(issues);
}

/** A locale's own values of localized fields, validated (nothing required: a locale may lack any). */
async function validateOwn(ctx: Ctx, type: EntryType, values: Record<string, unknown>, found: Issue[]): Promise<Record<string, unknown>> {
  const localized = localizedFieldNames(type.fields);
  return validateFields(ctx, { ...type, fields: type.fields.filter((f) => localized.has(f.name)) }, values, false, found);
}

export interface CreateEntryInput {
  typeSlug: string;
  name: string;
  slug: string;
  fields?: Record<string, unknown> | undefined;
  seo?: Record<string, unknown> | undefined;
  status?: 'draft' | 'published' | undefined;
  sortOrder?: number | undefined;
  /** The locale `fields` and `seo` are written in (the project's default when absent). */
  locale?: string | undefined;
  /** A clone's other locales' draft values and SEO, taken over whole. */
  copyLocales?: { draftLocales: LocaleValues; seoLocales: LocaleValues } | undefined;
}

export async function loadType(ctx: Ctx, store: EntryStore, slug: string): Promise<EntryType> {
  const type = await store.findType(ctx.db, ctx.project.id, slug);
  if (!type) throw new CmsError('NOT_FOUND', `${store.kind === 'page' ? 'Page type' : 'Collection type'} "${slug}" not found`);
  return type;
}

export async function createEntry<K extends EntryKind>(ctx: Ctx, kind: K, input: CreateEntryInput): Promise<WriteShapeOf<K>> {
  const store = storeOf(kind);
  const type = await loadType(ctx, store, input.typeSlug);
  const pl = ctx.project.locales;
  const locale = writeLocale(pl, input.locale);
  // The fields as sent are measured: the type's defaults added below do not count against them.
  checkSize(input.fields ?? {});
  const found = nameAndSlugIssues(input);
  let fields: Record<string, unknown>;
  let seo: Record<string, unknown> = {};
  let draftLocales: LocaleValues = input.copyLocales?.draftLocales ?? {};
  let seoLocales: LocaleValues = kind === 'page' ? input.copyLocales?.seoLocales ?? {} : {};
  if (locale === pl.defaultLocale) {
    fields = await validateFields(ctx, type, input.fields ?? {}, true, found);
    if (kind === 'page') seo = await validateSeo(ctx, input.seo, found);
  } else {
    // In another locale: the shared fields (with the defaults of new content) are the entry's
    // content, the localized ones that locale's own values.
    const { shared, own } = splitLocalized(input.fields ?? {}, localizedFieldNames(type.fields));
    fields = await validateFields(ctx, type, shared, true, found);
    draftLocales = withLocaleValues(draftLocales, locale, await validateOwn(ctx, type, mergeOwn({}, own), found));
    if (kind === 'page') seoLocales = withLocaleValues(seoLocales, locale, await validateSeo(ctx, mergeOwn({}, input.seo ?? {}), found));
  }
  refuseIfInvalid(found);
  const slugExists = () => new CmsError('SLUG_EXISTS', `A ${store.label.toLowerCase()} with the slug "${input.slug}" already exists`);
  const publish = input.status === 'published';
  if (publish) {
    // A taken slug is reported before missing fields: checked first, then at the insert again.
    if (await store.slugTaken(ctx.db, ctx.project.id, type.id, input.slug)) throw slugExists();
    await requirePublishable(ctx, type, fields, draftLocales);
  }
  const now = ctx.clock.now();
  const by = actorLabel(ctx.actor);
  // The insert itself finds a taken slug (no query before it): null, and nothing written.
  const inserted = await store.insert(ctx.db, {
    projectId: ctx.project.id,
    typeId: type.id,
    name: input.name,
    slug: input.slug,
    status: 'draft',
    draftContent: fields,
    publishedContent: null,
    seo,
    publishedSeo: null,
    draftLocales,
    publishedLocales: null,
    seoLocales,
    publishedSeoLocales: null,
    sortOrder: input.sortOrder ?? (await store.nextSortOrder(ctx.db, type.id)),
    version: 1,
    publishedAt: null,
    publishAt: null,
    unpublishAt: null,
    createdBy: by,
    updatedBy: by,
    createdAt: now,
    updatedAt: now,
  });
  if (!inserted) throw slugExists();
  let row = inserted;
  // A new entry is news in every locale.
  const every = { locales: everyLocaleCode(pl) };
  await ctx.emit(store.events.created, toWriteShape(kind, row, type.slug, pl), every);
  if (publish) {
    row = (await store.update(ctx.db, row.id, {
      status: 'published', publishedContent: fields, publishedSeo: seo, publishedLocales: draftLocales, publishedSeoLocales: seoLocales, publishedAt: now,
    }))!;
    await store.snapshot(ctx.db, row, by, now, pl.defaultLocale);
    await ctx.emit(store.events.published, toWriteShape(kind, row, type.slug, pl), every);
  }
  ctx.contentChanged();
  return toWriteShape(kind, row, type.slug, pl);
}

export interface UpdateEntryInput {
  ref: EntryRef;
  typeSlug?: string | undefined;
  name?: string | undefined;
  slug?: string | undefined;
  fields?: Record<string, unknown> | undefined;
  seo?: Record<string, unknown> | undefined;
  sortOrder?: number | undefined;
  expectedVersion?: number | undefined;
  /** The locale `fields` and `seo` are written in (the project's default when absent). */
  locale?: string | undefined;
  /** A restore: the other locales' draft values and SEO, replaced whole (after `fields` and `seo`). */
  replaceLocales?: { draftLocales: LocaleValues; seoLocales: LocaleValues } | undefined;
  /** Autosave keeps the draft without an event. */
  silent?: boolean;
}

export async function findEntry<K extends EntryKind>(ctx: Ctx, kind: K, ref: EntryRef, typeSlug?: string, forUpdate = false): Promise<{ row: EntryRow; type: EntryType; store: EntryStore<K> }> {
  const store = storeOf(kind);
  const typeFilter = typeSlug ? await loadType(ctx, store, typeSlug) : null;
  const row = await store.find(ctx.db, ctx.project.id, ref, { typeId: typeFilter?.id, forUpdate });
  if (!row) throw new CmsError('NOT_FOUND', `${store.label} ${'id' in ref ? ref.id : `"${ref.slug}"`} not found`);
  const type = typeFilter ?? (await store.typeById(ctx.db, row.typeId));
  return { row, type, store };
}

function versionConflict(current: number, expected: number) {
  return new CmsError('VERSION_CONFLICT', `Version conflict: you sent version ${expected}, the current version is ${current}`, { currentVersion: current });
}

export async function updateEntry<K extends EntryKind>(ctx: Ctx, kind: K, input: UpdateEntryInput): Promise<WriteShapeOf<K>> {
  const { row, type, store } = await findEntry(ctx, kind, input.ref, input.typeSlug, true);
  if (input.expectedVersion !== undefined && input.expectedVersion !== row.version) throw versionConflict(row.version, input.expectedVersion);
  const changes: Partial<EntryRow> = {};
  const pl = ctx.project.locales;
  const locale = writeLocale(pl, input.locale);
  if (input.fields !== undefined) checkSize(input.fields);
  const found = nameAndSlugIssues({ name: input.name, slug: input.slug !== row.slug ? input.slug : undefined });
  if (input.name !== undefined) changes.name = input.name;
  if (locale === pl.defaultLocale) {
    if (input.fields !== undefined) changes.draftContent = await validateFields(ctx, type, mergeKeys(row.draftContent, input.fields), false, found);
    if (input.seo !== undefined && kind === 'page') changes.seo = await validateSeo(ctx, mergeKeys(row.seo, input.seo), found);
  } else {
    // Another locale: its own values of localized fields merge key by key (null clears one, so
    // the locale falls back again); shared fields change for every locale.
    const { shared, own } = splitLocalized(input.fields ?? {}, localizedFieldNames(type.fields));
    if (Object.keys(shared).length) changes.draftContent = await validateFields(ctx, type, mergeKeys(row.draftContent, shared), false, found);
    if (Object.keys(own).length) {
      changes.draftLocales = withLocaleValues(row.draftLocales, locale, await validateOwn(ctx, type, mergeOwn(row.draftLocales[locale], own), found));
    }
    if (input.seo !== undefined && kind === 'page') {
      changes.seoLocales = withLocaleValues(row.seoLocales, locale, await validateSeo(ctx, mergeOwn(row.seoLocales[locale], input.seo), found));
    }
  }
  if (input.replaceLocales) {
    const localized = localizedFieldNames(type.fields);
    const draftLocales: LocaleValues = {};
    for (const [code, values] of Object.entries(input.replaceLocales.draftLocales)) {
      Object.assign(draftLocales, withLocaleValues({}, code, await validateOwn(ctx, type, splitLocalized(values, localized).own, found)));
    }
    changes.draftLocales = draftLocales;
    if (kind === 'page') {
      const seoLocales: LocaleValues = {};
      for (const [code, values] of Object.entries(input.replaceLocales.seoLocales)) Object.assign(seoLocales, withLocaleValues({}, code, await validateSeo(ctx, values, found)));
      changes.seoLocales = seoLocales;
    }
  }
  refuseIfInvalid(found);
  // A taken slug is a conflict: reported once the body is valid.
  if (input.slug !== undefined && input.slug !== row.slug) {
    if (await store.slugTaken(ctx.db, ctx.project.id, row.typeId, input.slug, row.id)) {
      throw new CmsError('SLUG_EXISTS', `A ${store.label.toLowerCase()} with the slug "${input.slug}" already exists`);
    }
    changes.slug = input.slug;
  }
  if (changes.draftContent) checkSize(changes.draftContent);
  if (input.sortOrder !== undefined && kind === 'item') changes.sortOrder = input.sortOrder;
  const now = ctx.clock.now();
  const updated = await store.update(ctx.db, row.id, {
    ...changes, version: row.version + 1, updatedAt: now, updatedBy: actorLabel(ctx.actor),
  }, row.version);
  if (!updated) {
    const current = await store.find(ctx.db, ctx.project.id, { id: row.id });
    throw versionConflict(current?.version ?? row.version + 1, input.expectedVersion ?? row.version);
  }
  if (changes.slug) await store.addSlugHistory(ctx.db, updated, row.slug, now);
  const shape = toWriteShape(kind, updated, type.slug, pl);
  if (!input.silent) {
    const locales = changedLocales(pl, stateOf(row), stateOf(updated), localizedFieldNames(type.fields), input.replaceLocales ? everyLocaleCode(pl) : [locale]);
    await ctx.emit(store.events.updated, shape, { locales });
  }
  ctx.contentChanged();
  return shape;
}

export async function publishEntry<K extends EntryKind>(ctx: Ctx, kind: K, ref: EntryRef, typeSlug?: string, opts: { eventData?: 'object' | 'id' } = {}): Promise<WriteShapeOf<K>> {
  const { row, type, store } = await findEntry(ctx, kind, ref, typeSlug, true);
  const pl = ctx.project.locales;
  await requirePublishable(ctx, type, row.draftContent, row.draftLocales);
  const now = ctx.clock.now();
  // Every locale goes live at once.
  const updated = (await store.update(ctx.db, row.id, {
    status: 'published',
    publishedContent: row.draftContent,
    publishedSeo: row.seo,
    publishedLocales: row.draftLocales,
    publishedSeoLocales: row.seoLocales,
    // Re-publishing an edited page keeps its first publication date, so lists keep their order.
    publishedAt: row.status === 'published' && row.publishedAt ? row.publishedAt : now,
    publishAt: null,
    updatedBy: actorLabel(ctx.actor),
  }))!;
  await store.snapshot(ctx.db, updated, actorLabel(ctx.actor), now, pl.defaultLocale);
  const shape = toWriteShape(kind, updated, type.slug, pl);
  await ctx.emit(store.events.published, opts.eventData === 'id' ? { id: updated.id } : shape, { locales: everyLocaleCode(pl) });
  ctx.contentChanged();
  return shape;
}

export async function unpublishEntry<K extends EntryKind>(ctx: Ctx, kind: K, ref: EntryRef, typeSlug?: string, opts: { eventData?: 'object' | 'id' } = {}): Promise<WriteShapeOf<K>> {
  const { row, type, store } = await findEntry(ctx, kind, ref, typeSlug, true);
  const pl = ctx.project.locales;
  const now = ctx.clock.now();
  const updated = (await store.update(ctx.db, row.id, {
    status: 'draft', publishedContent: null, publishedSeo: null, publishedLocales: null, publishedSeoLocales: null, publishedAt: null,
    // A manual (or scheduled) unpublish ends a scheduled one; a scheduled publish stays.
    unpublishAt: null,
    updatedBy: actorLabel(ctx.actor),
  }))!;
  await store.snapshot(ctx.db, updated, actorLabel(ctx.actor), now, pl.defaultLocale);
  const shape = toWriteShape(kind, updated, type.slug, pl);
  await ctx.emit(store.events.unpublished, opts.eventData === 'id' ? { id: updated.id } : shape, { locales: everyLocaleCode(pl) });
  ctx.contentChanged();
  return shape;
}

export interface Referrer {
  id: string;
  slug: string;
  type: 'page' | 'collectionItem';
  typeSlug: string;
}

/**
 * Content that points at an id: any live page or item (drafts included) whose stored content
 * holds it. Ids are UUIDs, so finding the text is exact.
 */
export async function findReferrers(db: Db, projectId: string, id: string, exceptId?: string): Promise<Referrer[]> {
  const needle = `%${id.toLowerCase()}%`;
  const pageRows = await db.select({ id: pages.id, slug: pages.slug, typeSlug: pageTypes.slug }).from(pages)
    .innerJoin(pageTypes, eq(pageTypes.id, pages.pageTypeId))
    .where(and(eq(pages.projectId, projectId), isNull(pages.deletedAt), exceptId ? ne(pages.id, exceptId) : undefined,
      or(sql`lower(${pages.draftContent}::text) like ${needle}`, sql`lower(${pages.publishedContent}::text) like ${needle}`,
        sql`lower(${pages.seo}::text) like ${needle}`, sql`lower(${pages.draftLocales}::text) like ${needle}`,
        sql`lower(${pages.publishedLocales}::text) like ${needle}`, sql`lower(${pages.seoLocales}::text) like ${needle}`)))
    .limit(100);
  const itemRows = await db.select({ id: collectionItems.id, slug: collectionItems.slug, typeSlug: collectionTypes.slug }).from(collectionItems)
    .innerJoin(collectionTypes, eq(collectionTypes.id, collectionItems.collectionTypeId))
    .where(and(eq(collectionItems.projectId, projectId), isNull(collectionItems.deletedAt), exceptId ? ne(collectionItems.id, exceptId) : undefined,
      or(sql`lower(${collectionItems.draftContent}::text) like ${needle}`, sql`lower(${collectionItems.publishedContent}::text) like ${needle}`,
        sql`lower(${collectionItems.draftLocales}::text) like ${needle}`, sql`lower(${collectionItems.publishedLocales}::text) like ${needle}`)))
    .limit(100);
  return [
    ...pageRows.map((r) => ({ ...r, type: 'page' as const })),
    ...itemRows.map((r) => ({ ...r, type: 'collectionItem' as const })),
  ];
}

export async function deleteEntry(ctx: Ctx, kind: EntryKind, ref: EntryRef, typeSlug: string | undefined, force: boolean, opts: { eventData?: 'object' | 'id' } = {}): Promise<{ success: true }> {
  const { row, store } = await findEntry(ctx, kind, ref, typeSlug, true);
  if (!force) {
    await holdForDelete(ctx.db, row.id);
    const referrers = await findReferrers(ctx.db, ctx.project.id, row.id, row.id);
    if (referrers.length) {
      throw new CmsError('HAS_REFERENCES',
        `${store.label} "${row.slug}" is referenced by ${referrers.length} entr${referrers.length === 1 ? 'y' : 'ies'}; remove the references or delete with force=true`,
        { referrers: referrers.map((r) => ({ id: r.id, slug: r.slug, type: r.type, typeSlug: r.typeSlug })) });
    }
  }
  const now = ctx.clock.now();
  await store.update(ctx.db, row.id, { deletedAt: now, updatedAt: now, updatedBy: actorLabel(ctx.actor) });
  await ctx.emit(store.events.deleted, opts.eventData === 'id' ? { id: row.id } : { id: row.id, name: row.name, slug: row.slug },
    { locales: everyLocaleCode(ctx.project.locales) });
  ctx.contentChanged();
  return { success: true };
}
