import { z } from 'zod';
import { actorLabel } from '../../actor.js';
import type { Ctx } from '../../context.js';
import { CmsError } from '../../errors.js';
import { defineOperation } from '../../operation.js';
import { findEntry, updateEntry } from '../entries.js';
import type { EntryKind, WriteShapeOf } from '../store.js';
import { isMultilingual, localizedFieldNames } from '../../locales/model.js';
import { rebaseLocales } from '../locale-writes.js';
import { seoKeys } from '../shapes.js';
import { collectionInput, editorAccess, refSchema, replacementPatch, viewerAccess, type Ref } from './shared.js';
import type { LocaleValues } from '../../../db/schema/index.js';

export interface VersionView {
  version: number;
  createdAt: string;
  createdBy: string | null;
  status: string;
}

/** The stored snapshots (publish, unpublish, restore), newest first. */
async function listVersions(ctx: Ctx, kind: EntryKind, ref: Ref, collection: string | undefined): Promise<VersionView[]> {
  const { row, store } = await findEntry(ctx, kind, ref, collection);
  return (await store.versions(ctx.db, row.id)).map((s) => ({
    version: s.version, createdAt: s.createdAt.toISOString(), createdBy: s.createdBy, status: s.status,
  }));
}

/** One snapshot's draft, laid out for the project's current default locale (what restore would bring back). */
export interface VersionDetail extends VersionView {
  name: string;
  slug: string;
  draftContent: Record<string, unknown>;
  seo?: Record<string, unknown>;
  /** Other locales' draft values, in a project with several locales. */
  draftLocales?: Record<string, Record<string, unknown>>;
  seoLocales?: Record<string, Record<string, unknown>>;
}

/**
 * A snapshot's values of the fields the type still has: a field removed since (its values dropped
 * from the entries then) is not brought back, so a version taken before a schema change can still
 * be restored. A value that no longer fits a field that is still there is refused as on any save.
 */
function ofFieldsTheTypeHas(fields: ReadonlyArray<{ name: string }>, values: { content: Record<string, unknown>; others: LocaleValues }) {
  const names = new Set(fields.map((f) => f.name));
  const keep = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).filter(([k]) => names.has(k)));
  return { content: keep(values.content), others: Object.fromEntries(Object.entries(values.others).map(([code, v]) => [code, keep(v)])) };
}

async function getVersion(ctx: Ctx, kind: EntryKind, input: { ref: Ref; collection?: string | undefined; version: number }): Promise<VersionDetail> {
  const { row, type, store } = await findEntry(ctx, kind, input.ref, input.collection);
  const snapshot = await store.snapshotAt(ctx.db, row.id, input.version);
  const meta = (await store.versions(ctx.db, row.id)).find((v) => v.version === input.version);
  if (!snapshot || !meta) {
    throw new CmsError('NOT_FOUND', `${store.label} ${row.id} has no stored version ${input.version}; list them with versions`);
  }
  const pl = ctx.project.locales;
  const from = snapshot.defaultLocale ?? pl.defaultLocale;
  const fields = ofFieldsTheTypeHas(type.fields, rebaseLocales(pl, snapshot.draftContent, snapshot.draftLocales ?? {}, localizedFieldNames(type.fields), from));
  const seo = rebaseLocales(pl, snapshot.seo ?? {}, snapshot.seoLocales ?? {}, new Set<string>(seoKeys), from);
  const multilingual = isMultilingual(pl);
  return {
    version: meta.version, createdAt: meta.createdAt.toISOString(), createdBy: meta.createdBy, status: meta.status,
    name: snapshot.name, slug: snapshot.slug, draftContent: fields.content,
    ...(kind === 'page' ? { seo: seo.content } : {}),
    ...(multilingual ? { draftLocales: fields.others, ...(kind === 'page' ? { seoLocales: seo.others } : {}) } : {}),
  };
}

/**
 * Brings a snapshot's draft (name, slug, fields, SEO, in every locale) back as a new version: the
 * publication state stays as it is. Emits *.updated with the reverted object and snapshots the
 * result. A snapshot taken under another default locale is laid out for the current one; one
 * taken before the entry had other locales' values leaves those as they are.
 */
async function restoreVersion<K extends EntryKind>(ctx: Ctx, kind: K, input: { ref: Ref; collection?: string | undefined; version: number }): Promise<WriteShapeOf<K>> {
  const { row, type, store } = await findEntry(ctx, kind, input.ref, input.collection, true);
  const snapshot = await store.snapshotAt(ctx.db, row.id, input.version);
  if (!snapshot) {
    throw new CmsError('NOT_FOUND', `${store.label} ${row.id} has no stored version ${input.version}; list them with versions`);
  }
  const pl = ctx.project.locales;
  const from = snapshot.defaultLocale ?? pl.defaultLocale;
  const fields = ofFieldsTheTypeHas(type.fields, rebaseLocales(pl, snapshot.draftContent, snapshot.draftLocales ?? row.draftLocales, localizedFieldNames(type.fields), from));
  const allSeo = new Set<string>(seoKeys);
  const seo = rebaseLocales(pl, snapshot.seo ?? {}, snapshot.seoLocales ?? row.seoLocales, allSeo, from);
  const shape = await updateEntry(ctx, kind, {
    ref: { id: row.id },
    name: snapshot.name,
    slug: snapshot.slug,
    fields: replacementPatch(row.draftContent, fields.content),
    ...(kind === 'page' ? { seo: replacementPatch(row.seo, seo.content) } : {}),
    replaceLocales: { draftLocales: fields.others, seoLocales: seo.others },
    expectedVersion: row.version,
  });
  const restored = await store.find(ctx.db, ctx.project.id, { id: row.id });
  await store.snapshot(ctx.db, restored!, actorLabel(ctx.actor), ctx.clock.now(), pl.defaultLocale);
  return shape;
}

export const listPageVersions = defineOperation({
  name: 'pages.versions',
  input: z.strictObject({ ref: refSchema, collection: collectionInput }),
  access: viewerAccess,
  write: false,
  run: (ctx, input) => listVersions(ctx, 'page', input.ref, input.collection),
});

export const listItemVersions = defineOperation({
  name: 'items.versions',
  input: z.strictObject({ ref: refSchema, collection: collectionInput }),
  access: viewerAccess,
  write: false,
  run: (ctx, input) => listVersions(ctx, 'item', input.ref, input.collection),
});

const versionInput = z.strictObject({ ref: refSchema, collection: collectionInput, version: z.coerce.number().int().positive() });

export const getPageVersion = defineOperation({
  name: 'pages.version',
  input: versionInput,
  access: viewerAccess,
  write: false,
  run: (ctx, input) => getVersion(ctx, 'page', input),
});

export const getItemVersion = defineOperation({
  name: 'items.version',
  input: versionInput,
  access: viewerAccess,
  write: false,
  run: (ctx, input) => getVersion(ctx, 'item', input),
});

export const restorePage = defineOperation({
  name: 'pages.restore',
  input: z.strictObject({ ref: refSchema, collection: collectionInput, version: z.coerce.number().int().positive() }),
  access: editorAccess,
  write: true,
  run: (ctx, input) => restoreVersion(ctx, 'page', input),
});

export const restoreItem = defineOperation({
  name: 'items.restore',
  input: z.strictObject({ ref: refSchema, collection: collectionInput, version: z.coerce.number().int().positive() }),
  access: editorAccess,
  write: true,
  run: (ctx, input) => restoreVersion(ctx, 'item', input),
});
