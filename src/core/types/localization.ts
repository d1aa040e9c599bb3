import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { collectionItems, collectionTypes, pages, pageTypes } from '../../db/schema/index.js';
import type { TypeDefinition } from '../schema/index.js';

/**
 * A field's `localized` changing in a schema change. The default locale's values are the entry's
 * content, so a field becoming localized keeps its value as the default's (other locales start
 * empty and fall back to it); a field becoming shared keeps the default's value and drops the
 * other locales' values of it (drafts and published alike).
 */
export interface LocalizationChange {
  kind: 'pageTypes' | 'collections';
  slug: string;
  field: string;
  /** `localized`: shared → per locale; `shared`: per locale → shared. */
  direction: 'localized' | 'shared';
  /** Entries whose other locales' values of the field are dropped (always 0 when becoming localized). */
  entriesLosingValues: number;
}

/** The fields of a type whose `localized` flag differs between two definitions (fields in both). */
export function localizationFlips(before: TypeDefinition, after: TypeDefinition): Array<{ field: string; direction: 'localized' | 'shared' }> {
  const was = new Map(before.fields.map((f) => [f.name, f.localized === true]));
  const out: Array<{ field: string; direction: 'localized' | 'shared' }> = [];
  for (const f of after.fields) {
    const old = was.get(f.name);
    if (old === undefined || old === (f.localized === true)) continue;
    out.push({ field: f.name, direction: f.localized === true ? 'localized' : 'shared' });
  }
  return out;
}

type Table = typeof pages | typeof collectionItems;

function target(kind: 'pageTypes' | 'collections'): { table: Table; typeTable: typeof pageTypes | typeof collectionTypes; typeColumn: SQL } {
  return kind === 'pageTypes'
    ? { table: pages, typeTable: pageTypes, typeColumn: sql`${pages.pageTypeId}` }
    : { table: collectionItems, typeTable: collectionTypes, typeColumn: sql`${collectionItems.collectionTypeId}` };
}

/** Some locale of `column` has a value of the field (a bound parameter, never SQL text). */
const holds = (column: SQL, field: string) => sql`exists (select 1 from jsonb_each(coalesce(${column}, '{}'::jsonb)) e where e.value ? ${field}::text)`;

/** Each locale of `column` without the field; a locale left with nothing is dropped. */
const without = (column: SQL, field: string) => sql`(select coalesce(jsonb_object_agg(e.key, e.value - ${field}::text), '{}'::jsonb)
  from jsonb_each(${column}) e where (e.value - ${field}::text) <> '{}'::jsonb)`;

/** Some other locale of the entry, draft or published, has a value of the field. */
const holdsInLocales = (table: Table, field: string) => or(holds(sql`${table.draftLocales}`, field), holds(sql`${table.publishedLocales}`, field));

/** The entry has a value of the field: in its draft or published content, or in another locale's values. */
const holdsValue = (table: Table, field: string) => or(sql`${table.draftContent} ? ${field}::text`,
  sql`coalesce(${table.publishedContent}, '{}'::jsonb) ? ${field}::text`, holdsInLocales(table, field));

/** The other locales' values (draft and published) without the field. */
function localesWithout(table: Table, field: string): { draftLocales: SQL; publishedLocales: SQL } {
  const draft = sql`${table.draftLocales}`;
  const published = sql`${table.publishedLocales}`;
  return {
    draftLocales: sql`case when ${draft} is null then null else ${without(draft, field)} end`,
    publishedLocales: sql`case when ${published} is null then null else ${without(published, field)} end`,
  };
}

async function typeId(db: Db, projectId: string, kind: 'pageTypes' | 'collections', slug: string): Promise<string | null> {
  const { typeTable } = target(kind);
  const [row] = await db.select({ id: typeTable.id }).from(typeTable).where(and(eq(typeTable.projectId, projectId), eq(typeTable.slug, slug)));
  return row?.id ?? null;
}

/** How many live entries of a type hold another locale's value of a field (what becoming shared drops). */
export async function entriesWithLocaleValues(db: Db, projectId: string, kind: 'pageTypes' | 'collections', slug: string, field: string): Promise<number> {
  const id = await typeId(db, projectId, kind, slug);
  if (!id) return 0;
  const { table, typeColumn } = target(kind);
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(table)
    .where(and(sql`${typeColumn} = ${id}`, isNull(table.deletedAt),
      holdsInLocales(table, field)));
  return row?.n ?? 0;
}

/** How many live entries of a type hold a value of a field, in any locale, draft or published (what removing it touches). */
export async function entriesWithValues(db: Db, projectId: string, kind: 'pageTypes' | 'collections', slug: string, field: string): Promise<number> {
  const id = await typeId(db, projectId, kind, slug);
  if (!id) return 0;
  const { table, typeColumn } = target(kind);
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(table)
    .where(and(sql`${typeColumn} = ${id}`, isNull(table.deletedAt), holdsValue(table, field)));
  return row?.n ?? 0;
}

/** Carries out a field becoming shared: the other locales' values of it go, in every entry of the type. */
export async function dropLocaleValuesOf(db: Db, projectId: string, kind: 'pageTypes' | 'collections', slug: string, field: string): Promise<void> {
  const id = await typeId(db, projectId, kind, slug);
  if (!id) return;
  const { table, typeColumn } = target(kind);
  await db.update(table).set(localesWithout(table, field)).where(and(sql`${typeColumn} = ${id}`, holdsInLocales(table, field)));
}

/**
 * Carries out a field's removal from a type: its values go from every entry of the type (draft,
 * published, every locale), so that what is delivered is what the type defines and the entries
 * can still be published. Revisions keep them, as history.
 */
export async function dropFieldValues(db: Db, projectId: string, kind: 'pageTypes' | 'collections', slug: string, field: string): Promise<void> {
  const id = await typeId(db, projectId, kind, slug);
  if (!id) return;
  const { table, typeColumn } = target(kind);
  const published = sql`${table.publishedContent}`;
  await db.update(table).set({
    draftContent: sql`${table.draftContent} - ${field}::text`,
    publishedContent: sql`case when ${published} is null then null else ${published} - ${field}::text end`,
    ...localesWithout(table, field),
  }).where(and(sql`${typeColumn} = ${id}`, holdsValue(table, field)));
}

/** The localization part of a schema change between two definitions of a type, with what it costs. */
export async function planLocalization(db: Db, projectId: string, kind: 'pageTypes' | 'collections', before: TypeDefinition, after: TypeDefinition): Promise<LocalizationChange[]> {
  const out: LocalizationChange[] = [];
  for (const flip of localizationFlips(before, after)) {
    const entriesLosingValues = flip.direction === 'shared' ? await entriesWithLocaleValues(db, projectId, kind, before.slug, flip.field) : 0;
    out.push({ kind, slug: after.slug, ...flip, entriesLosingValues });
  }
  return out;
}
