import { and, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { blogPosts, collectionItems, collectionTypes, pages, pageTypes, projects } from '../../db/schema/index.js';
import type { Ctx } from '../context.js';
import { CmsError } from '../errors.js';
import { defineOperation } from '../operation.js';
import { storedFields } from '../schema/index.js';
import { defaultLocaleName, localeCodePattern, localizedFieldNames, type Locale, type ProjectLocales } from './model.js';

/** A locale as the API shows it. */
export interface LocaleView extends Locale {
  default: boolean;
}

const toViews = (pl: ProjectLocales): LocaleView[] => pl.locales.map((l) => ({ ...l, default: l.code === pl.defaultLocale }));

export const codeSchema = z.string().regex(localeCodePattern, 'must be a locale code like "en", "fr" or "pt-BR"');

/** The project's locales read inside the transaction, its row locked: locale changes of one project run one at a time. */
export async function lockedLocales(ctx: Ctx): Promise<ProjectLocales> {
  const [row] = await ctx.db.select({ locales: projects.locales, defaultLocale: projects.defaultLocale }).from(projects)
    .where(eq(projects.id, ctx.project.id)).for('update');
  if (!row) throw new CmsError('NOT_FOUND', 'Project not found');
  return { defaultLocale: row.defaultLocale, locales: row.locales };
}

export async function saveLocales(ctx: Ctx, pl: ProjectLocales): Promise<LocaleView[]> {
  await ctx.db.update(projects).set({ locales: pl.locales, defaultLocale: pl.defaultLocale }).where(eq(projects.id, ctx.project.id));
  // What every read in a locale answers depends on the locales: cached answers go, and the
  // engines sharing the database read the project again.
  ctx.projectChanged();
  return toViews(pl);
}

const notFound = (code: string, pl: ProjectLocales) =>
  new CmsError('NOT_FOUND', `Locale "${code}" not found (this project has ${pl.locales.map((l) => l.code).join(', ')})`);

export function checkFallback(pl: ProjectLocales, code: string, fallback: string | null | undefined): void {
  if (fallback === undefined || fallback === null) return;
  const invalid = (message: string) => new CmsError('VALIDATION_FAILED', `fallback: ${message}`, [{ path: 'fallback', message }]);
  if (fallback === code) throw invalid('a locale cannot fall back to itself');
  if (!pl.locales.some((l) => l.code === fallback)) throw invalid(`unknown locale "${fallback}" (add it first)`);
  // The chain from the fallback must not lead back here.
  const probe: ProjectLocales = { ...pl, locales: pl.locales.map((l) => (l.code === code ? { ...l, fallback } : l)) };
  const seen = new Set<string>();
  let next: string | null = fallback;
  while (next) {
    if (next === code) throw invalid(`"${fallback}" falls back to "${code}" already (a fallback cannot go round in a circle)`);
    if (seen.has(next)) break;
    seen.add(next);
    next = probe.locales.find((l) => l.code === next)?.fallback ?? null;
  }
}

export const listLocales = defineOperation({
  name: 'locales.list',
  input: z.strictObject({}),
  access: { role: 'viewer' },
  write: false,
  run: async (ctx) => toViews(ctx.project.locales),
});

export const addLocale = defineOperation({
  name: 'locales.add',
  input: z.strictObject({ code: codeSchema, name: z.string().min(1).max(255).optional(), fallback: codeSchema.nullable().optional() }),
  access: { role: 'admin' },
  write: true,
  async run(ctx, input) {
    const pl = await lockedLocales(ctx);
    if (pl.locales.some((l) => l.code === input.code)) throw new CmsError('CONFLICT', `Locale "${input.code}" already exists`);
    checkFallback(pl, input.code, input.fallback);
    return saveLocales(ctx, { ...pl, locales: [...pl.locales, { code: input.code, name: input.name ?? defaultLocaleName(input.code), fallback: input.fallback ?? null }] });
  },
});

export const updateLocale = defineOperation({
  name: 'locales.update',
  input: z.strictObject({ code: z.string(), name: z.string().min(1).max(255).optional(), fallback: codeSchema.nullable().optional() }),
  access: { role: 'admin' },
  write: true,
  async run(ctx, input) {
    const pl = await lockedLocales(ctx);
    const current = pl.locales.find((l) => l.code === input.code);
    if (!current) throw notFound(input.code, pl);
    checkFallback(pl, input.code, input.fallback);
    const next: Locale = {
      code: current.code,
      name: input.name ?? current.name,
      fallback: input.fallback === undefined ? current.fallback : input.fallback,
    };
    return saveLocales(ctx, { ...pl, locales: pl.locales.map((l) => (l.code === input.code ? next : l)) });
  },
});

/** Drops one locale's values from every entry of the project (the default's are never here). */
async function dropLocaleValues(db: Db, projectId: string, code: string): Promise<void> {
  await db.update(pages).set({
    draftLocales: sql`${pages.draftLocales} - ${code}::text`,
    publishedLocales: sql`${pages.publishedLocales} - ${code}::text`,
    seoLocales: sql`${pages.seoLocales} - ${code}::text`,
    publishedSeoLocales: sql`${pages.publishedSeoLocales} - ${code}::text`,
  }).where(and(eq(pages.projectId, projectId), sql`(${pages.draftLocales} ? ${code} or ${pages.publishedLocales} ? ${code} or ${pages.seoLocales} ? ${code} or ${pages.publishedSeoLocales} ? ${code})`));
  await db.update(collectionItems).set({
    draftLocales: sql`${collectionItems.draftLocales} - ${code}::text`,
    publishedLocales: sql`${collectionItems.publishedLocales} - ${code}::text`,
  }).where(and(eq(collectionItems.projectId, projectId), sql`(${collectionItems.draftLocales} ? ${code} or ${collectionItems.publishedLocales} ? ${code})`));
  await db.update(blogPosts).set({ locales: sql`${blogPosts.locales} - ${code}::text` })
    .where(and(eq(blogPosts.projectId, projectId), sql`${blogPosts.locales} ? ${code}`));
}

export const removeLocale = defineOperation({
  name: 'locales.remove',
  input: z.strictObject({ code: z.string() }),
  access: { role: 'admin' },
  write: true,
  async run(ctx, input) {
    const pl = await lockedLocales(ctx);
    const gone = pl.locales.find((l) => l.code === input.code);
    if (!gone) throw notFound(input.code, pl);
    if (input.code === pl.defaultLocale) {
      throw new CmsError('CONFLICT', `"${input.code}" is the default locale; make another locale the default first (cms locales set-default CODE)`);
    }
    await dropLocaleValues(ctx.db, ctx.project.id, input.code);
    // Locales that fell back to it fall back to where it did: their chains keep their order.
    const locales = pl.locales.filter((l) => l.code !== input.code)
      .map((l) => (l.fallback === input.code ? { ...l, fallback: gone.fallback } : l));
    return saveLocales(ctx, { ...pl, locales });
  },
});

const textArray = (names: readonly string[]) => sql`array[${sql.join(names.map((n) => sql`${n}`), sql`, `)}]::text[]`;

/**
 * The default locale's values are the entries' own content; another locale's live in `*_locales`.
 * Making `to` the default swaps them in every entry: `to`'s values move into the content (and SEO),
 * the old default's values of localized fields move under its code. Done in SQL, type by type.
 */
async function swapDefault(db: Db, projectId: string, from: string, to: string): Promise<void> {
  const swapContent = (content: SQL, others: SQL, localized: readonly string[]) => ({
    content: sql`(${content} - ${textArray(localized)}) || coalesce(${others} -> ${to}::text, '{}'::jsonb)`,
    others: sql`(${others} - ${to}::text) || jsonb_build_object(${from}::text,
      coalesce((select jsonb_object_agg(e.key, e.value) from jsonb_each(${content}) e where e.key = any(${textArray(localized)})), '{}'::jsonb))`,
  });
  const pageTypeRows = await db.select({ id: pageTypes.id, fields: pageTypes.fields }).from(pageTypes).where(eq(pageTypes.projectId, projectId));
  for (const t of pageTypeRows) {
    const localized = [...localizedFieldNames(storedFields(t.fields))];
    const where = eq(pages.pageTypeId, t.id);
    const seoAll = { content: sql`coalesce(${pages.seoLocales} -> ${to}::text, '{}'::jsonb)`, others: sql`(${pages.seoLocales} - ${to}::text) || jsonb_build_object(${from}::text, ${pages.seo})` };
    const pubSeoAll = {
      content: sql`coalesce(${pages.publishedSeoLocales} -> ${to}::text, '{}'::jsonb)`,
      others: sql`(coalesce(${pages.publishedSeoLocales}, '{}'::jsonb) - ${to}::text) || jsonb_build_object(${from}::text, ${pages.publishedSeo})`,
    };
    const draft = localized.length ? swapContent(sql`${pages.draftContent}`, sql`${pages.draftLocales}`, localized) : null;
    await db.update(pages).set({
      ...(draft ? { draftContent: draft.content, draftLocales: draft.others } : {}),
      seo: seoAll.content, seoLocales: seoAll.others,
    }).where(where);
    const published = localized.length ? swapContent(sql`${pages.publishedContent}`, sql`coalesce(${pages.publishedLocales}, '{}'::jsonb)`, localized) : null;
    await db.update(pages).set({
      ...(published ? { publishedContent: published.content, publishedLocales: published.others } : {}),
      publishedSeo: pubSeoAll.content, publishedSeoLocales: pubSeoAll.others,
    }).where(and(where, isNotNull(pages.publishedContent)));
  }
  const itemTypeRows = await db.select({ id: collectionTypes.id, fields: collectionTypes.fields }).from(collectionTypes).where(eq(collectionTypes.projectId, projectId));
  for (const t of itemTypeRows) {
    const localized = [...localizedFieldNames(storedFields(t.fields))];
    if (!localized.length) continue;
    const draft = swapContent(sql`${collectionItems.draftContent}`, sql`${collectionItems.draftLocales}`, localized);
    await db.update(collectionItems).set({ draftContent: draft.content, draftLocales: draft.others }).where(eq(collectionItems.collectionTypeId, t.id));
    const published = swapContent(sql`${collectionItems.publishedContent}`, sql`coalesce(${collectionItems.publishedLocales}, '{}'::jsonb)`, localized);
    await db.update(collectionItems).set({ publishedContent: published.content, publishedLocales: published.others })
      .where(and(eq(collectionItems.collectionTypeId, t.id), isNotNull(collectionItems.publishedContent)));
  }
  // Blog posts: title, summary, body and SEO are per locale. A post the new default has no title
  // for keeps the one it had (a post always has a title).
  const mine = (member: string) => sql`${blogPosts.locales} -> ${to}::text -> ${member}::text`;
  await db.update(blogPosts).set({
    title: sql`coalesce(${mine('title')} #>> '{}', ${blogPosts.title})`,
    summary: sql`coalesce(${mine('summary')} #>> '{}', '')`,
    body: sql`coalesce(${mine('body')} #>> '{}', '')`,
    seo: sql`coalesce(${mine('seo')}, '{}'::jsonb)`,
    locales: sql`(${blogPosts.locales} - ${to}::text) || jsonb_build_object(${from}::text,
      jsonb_build_object('title', ${blogPosts.title}, 'summary', ${blogPosts.summary}, 'body', ${blogPosts.body}, 'seo', ${blogPosts.seo}))`,
  }).where(eq(blogPosts.projectId, projectId));
}

export const setDefaultLocale = defineOperation({
  name: 'locales.setDefault',
  input: z.strictObject({ code: z.string() }),
  access: { role: 'admin' },
  write: true,
  async run(ctx, input) {
    const pl = await lockedLocales(ctx);
    if (!pl.locales.some((l) => l.code === input.code)) throw notFound(input.code, pl);
    if (input.code === pl.defaultLocale) return toViews(pl);
    await swapDefault(ctx.db, ctx.project.id, pl.defaultLocale, input.code);
    // The new default falls back to nothing (it is the end of every chain).
    const locales = pl.locales.map((l) => (l.code === input.code ? { ...l, fallback: null } : l));
    return saveLocales(ctx, { defaultLocale: input.code, locales });
  },
});

export const localeOperations = {
  'locales.list': listLocales,
  'locales.add': addLocale,
  'locales.update': updateLocale,
  'locales.remove': removeLocale,
  'locales.setDefault': setDefaultLocale,
} as const;
