// What an import in several locales writes besides the default locale's content: the project's
// new locales (and, for an empty project, its default), and each entry's values in the other
// locales. Runs inside the step's transaction (src/core/migrations/steps.ts), so a batch's entries
// and their other locales' values are written together or not at all. The values are checked
// like any write of the localized fields (the field rules, and SEO's); they are stored in the
// columns of migration 0005: `draft_locales`/`published_locales` and, for pages,
// `seo_locales`/`published_seo_locales`, each `{ "<code>": { field: value } }`.

import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { blogPosts, collectionItems, pages, projects, type LocaleValues } from '../../db/schema/index.js';
import type { Ctx } from '../context.js';
import { createContentLookups } from '../content/lookups.js';
import { seoWriteSchema } from '../content/shapes.js';
import type { EntryKind } from '../content/store.js';
import { CmsError } from '../errors.js';
import { defaultLocaleName, localeCodePattern, type Locale } from '../locales/model.js';
import { defineOperation } from '../operation.js';
import { storedFields, validateContent } from '../schema/index.js';
import { collectionTypes, itemVersions, pageTypes, pageVersions } from '../../db/schema/index.js';

/** The project's locales, and whether it has any content yet (pages, items, posts): what an import decides its locales by. */
export interface ProjectLocaleState {
  defaultLocale: string;
  locales: Locale[];
  hasContent: boolean;
}

async function hasAnyContent(ctx: Ctx): Promise<boolean> {
  const id = ctx.project.id;
  for (const t of [pages, collectionItems, blogPosts]) {
    const [row] = await ctx.db.select({ id: t.id }).from(t).where(eq(t.projectId, id)).limit(1);
    if (row) return true;
  }
  return false;
}

/** Reads the project's locales for a runner deciding where each source locale goes. Runner only. */
export const migrationLocalesProbe = defineOperation({
  name: 'migrations.step.localesProbe',
  input: z.strictObject({}),
  access: { role: null },
  write: false,
  async run(ctx): Promise<ProjectLocaleState> {
    const [row] = await ctx.db.select({ locales: projects.locales, defaultLocale: projects.defaultLocale }).from(projects).where(eq(projects.id, ctx.project.id));
    if (!row) throw new CmsError('NOT_FOUND', 'Project not found');
    return { defaultLocale: row.defaultLocale, locales: row.locales, hasContent: await hasAnyContent(ctx) };
  },
});

const code = z.string().regex(localeCodePattern);

/** What the schema step changes of the project's locales (the runner decided it from the probe). */
export const localesWriteSchema = z.strictObject({
  /** Codes to add (names from the known names), after the project's own, in this order. */
  add: z.array(code),
  /** Set only for a project with nothing in it yet and only `en`: the first listed locale becomes the default. */
  defaultLocale: code.optional(),
});
export type LocalesWrite = z.input<typeof localesWriteSchema>;

export interface LocalesWriteResult {
  added: Array<{ code: string; name: string }>;
  defaultLocale: string;
  /** The default the project had, when the step changed it. */
  previousDefault?: string;
}

/** Adds the missing locales and, for an empty project, sets the default; in the step's transaction, the project row locked. */
export async function applyImportLocales(ctx: Ctx, write: LocalesWrite): Promise<LocalesWriteResult> {
  const [row] = await ctx.db.select({ locales: projects.locales, defaultLocale: projects.defaultLocale }).from(projects)
    .where(eq(projects.id, ctx.project.id)).for('update');
  if (!row) throw new CmsError('NOT_FOUND', 'Project not found');
  const locales = [...row.locales];
  const added: LocalesWriteResult['added'] = [];
  for (const c of write.add) {
    if (locales.some((l) => l.code === c)) continue;
    const name = defaultLocaleName(c);
    locales.push({ code: c, name, fallback: null });
    added.push({ code: c, name });
  }
  let defaultLocale = row.defaultLocale;
  let previousDefault: string | undefined;
  if (write.defaultLocale && write.defaultLocale !== row.defaultLocale) {
    // Decided on a project with no content; checked again here, where nobody can add any meanwhile.
    if (await hasAnyContent(ctx)) {
      throw new CmsError('CONFLICT', `The project has content now: its default locale "${row.defaultLocale}" stays (the import would have made "${write.defaultLocale}" the default)`);
    }
    previousDefault = row.defaultLocale;
    defaultLocale = write.defaultLocale;
  }
  if (added.length || previousDefault) {
    await ctx.db.update(projects).set({ locales, defaultLocale }).where(eq(projects.id, ctx.project.id));
    ctx.projectChanged();
  }
  return { added, defaultLocale, ...(previousDefault ? { previousDefault } : {}) };
}

/** An entry's values in the other locales, as the runner converted them (references resolved). */
export const entryLocalesSchema = z.record(z.string(), z.record(z.string(), z.unknown()));

/**
 * Checks and stores one entry's other locales' values: only the type's localized fields, each
 * checked by the field rules; a page's SEO per locale by the SEO rules. A published entry gets the
 * same values as published ones (the import publishes all locales of an entry at once). A locale
 * whose values break a rule is left out (the entry keeps its other locales, and falls back there);
 * the answer says which and why, for the migration's log.
 */
export async function writeEntryLocales(
  ctx: Ctx, kind: EntryKind, id: string, values: { locales?: LocaleValues | undefined; seoLocales?: LocaleValues | undefined }, published: boolean,
): Promise<string[]> {
  const refused: string[] = [];
  const typeFields = kind === 'page'
    ? (await ctx.db.select({ fields: pageTypes.fields }).from(pages).innerJoin(pageTypes, eq(pageTypes.id, pages.pageTypeId)).where(eq(pages.id, id)))[0]?.fields
    : (await ctx.db.select({ fields: collectionTypes.fields }).from(collectionItems).innerJoin(collectionTypes, eq(collectionTypes.id, collectionItems.collectionTypeId)).where(eq(collectionItems.id, id)))[0]?.fields;
  if (typeFields === undefined) throw new CmsError('NOT_FOUND', `${kind === 'page' ? 'Page' : 'Item'} ${id} not found`);
  const localized = storedFields(typeFields).filter((f) => f.localized === true);
  const locales: LocaleValues = {};
  if (values.locales && localized.length) {
    const lookups = await createContentLookups(ctx.db, ctx.project.id, localized);
    const names = new Set(localized.map((f) => f.name));
    for (const [c, given] of Object.entries(values.locales)) {
      const own = Object.fromEntries(Object.entries(given).filter(([k, v]) => names.has(k) && v !== undefined && v !== null));
      if (!Object.keys(own).length) continue;
      const { value, issues } = await validateContent(localized, own, lookups, { requireRequired: false, applyDefaults: false });
      if (issues.length) {
        refused.push(`locale ${c} left out: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
        continue;
      }
      locales[c] = value;
    }
  }
  const seoLocales: LocaleValues = {};
  if (kind === 'page') {
    for (const [c, given] of Object.entries(values.seoLocales ?? {})) {
      const parsed = seoWriteSchema.safeParse(given);
      if (!parsed.success) {
        refused.push(`SEO in locale ${c} left out: ${parsed.error.issues.map((i) => `${['seo', ...i.path].join('.')}: ${i.message}`).join('; ')}`);
        continue;
      }
      const seo: Record<string, unknown> = parsed.data;
      if (Object.keys(seo).length) seoLocales[c] = seo;
    }
  }
  if (!Object.keys(locales).length && !Object.keys(seoLocales).length) return refused;
  // The entry's newest version holds them too, so a version restored later carries every locale.
  const snapshotPart = kind === 'page'
    ? { draftLocales: locales, seoLocales, ...(published ? { publishedLocales: locales, publishedSeoLocales: seoLocales } : {}) }
    : { draftLocales: locales, ...(published ? { publishedLocales: locales } : {}) };
  const versions = kind === 'page' ? { table: pageVersions, entry: pageVersions.pageId } : { table: itemVersions, entry: itemVersions.itemId };
  await ctx.db.update(versions.table).set({ snapshot: sql`${versions.table.snapshot} || ${JSON.stringify(snapshotPart)}::jsonb` })
    .where(and(eq(versions.entry, id), eq(versions.table.version, sql`(select max(v.version) from ${versions.table} v where v.${sql.identifier(kind === 'page' ? 'page_id' : 'item_id')} = ${id})`)));
  if (kind === 'page') {
    await ctx.db.update(pages).set({
      draftLocales: locales, seoLocales,
      ...(published ? { publishedLocales: locales, publishedSeoLocales: seoLocales } : {}),
    }).where(and(eq(pages.id, id), eq(pages.projectId, ctx.project.id)));
  } else {
    await ctx.db.update(collectionItems).set({
      draftLocales: locales, ...(published ? { publishedLocales: locales } : {}),
    }).where(and(eq(collectionItems.id, id), eq(collectionItems.projectId, ctx.project.id)));
  }
  return refused;
}
