import { and, asc, eq, getTableColumns, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import {
  blogAuthors, blogCategories, blogPostCategories, blogPosts, blogPostTags, blogTags, collectionItems, collectionTypes,
  components, itemSlugHistory, itemVersions, media, mediaFolders, pages, pageSlugHistory, pageTypes, pageVersions, projects,
  webhooks,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { canonicalJson } from '../../lib/canonical-json.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { Ctx } from '../context.js';
import { CmsError } from '../errors.js';
import { checkFallback, codeSchema, lockedLocales, saveLocales } from '../locales/operations.js';
import { mediaFilesOf, locationOf } from '../media/storage.js';
import { defineOperation } from '../operation.js';
import { generateSecret } from '../webhooks/schemas.js';

/**
 * A whole project as data (docs/export-import.md): every resource's rows with their ids, in the
 * order they can be inserted (a row only refers to rows of resources before it), and the media
 * files' bytes. `cms export` writes it to a .tar.gz and `cms import` reads it back; the archive
 * file itself is the CLI's business, the rows are the core's.
 */
export const archiveFormat = 'cms-export';
export const archiveVersion = 1;

type Row = Record<string, unknown>;
type Scope = (db: Db, projectId: string) => SQL;

interface ResourceDef {
  name: string;
  table: PgTable;
  /** The rows of the project. */
  where: Scope;
  /** Columns never exported (secrets) and the project id (the target project has its own). */
  omit: readonly string[];
  /** The row's identity: its id, or the columns of a link table's key. */
  key: readonly string[];
  /** Fills what the archive does not carry when a row is created (a webhook's new secret). */
  fill?: () => Row;
  /** Only with --versions. */
  versions?: boolean;
  /** Columns that are unique in the project (among rows not deleted, when `live`): a taken value is a conflict. */
  unique?: { columns: readonly string[]; live?: boolean };
  /** Columns that refer to rows of earlier resources: a row whose referent was not imported is skipped. */
  refs?: Readonly<Record<string, string>>;
}

const byProject = (table: PgTable & { projectId: PgColumn }): Scope => (_db, projectId) => eq(table.projectId, projectId);
const under = (column: PgColumn, parent: PgTable & { id: PgColumn; projectId: PgColumn }): Scope =>
  (db, projectId) => inArray(column, db.select({ id: parent.id }).from(parent).where(eq(parent.projectId, projectId)));

const rowResource = (name: string, table: PgTable & { projectId: PgColumn }, extra: Partial<ResourceDef> = {}): ResourceDef =>
  ({ name, table, where: byProject(table), omit: ['projectId'], key: ['id'], ...extra });

/** Every resource, parents first. */
export const archiveResources: readonly ResourceDef[] = [
  rowResource('media-folders', mediaFolders, { unique: { columns: ['name'] } }),
  rowResource('media', media),
  rowResource('page-types', pageTypes, { unique: { columns: ['slug'] } }),
  rowResource('collections', collectionTypes, { unique: { columns: ['slug'] } }),
  rowResource('components', components, { unique: { columns: ['slug'] } }),
  rowResource('blog-authors', blogAuthors, { unique: { columns: ['slug'] }, refs: { profileImageId: 'media' } }),
  rowResource('blog-categories', blogCategories, { unique: { columns: ['slug'] } }),
  rowResource('blog-tags', blogTags, { unique: { columns: ['slug'] } }),
  rowResource('pages', pages, { unique: { columns: ['slug'], live: true }, refs: { pageTypeId: 'page-types' } }),
  rowResource('items', collectionItems, { unique: { columns: ['collectionTypeId', 'slug'], live: true }, refs: { collectionTypeId: 'collections' } }),
  rowResource('blog-posts', blogPosts, { unique: { columns: ['slug'], live: true }, refs: { authorId: 'blog-authors', featuredImageId: 'media' } }),
  { name: 'blog-post-categories', table: blogPostCategories, where: under(blogPostCategories.postId, blogPosts), omit: [], key: ['postId', 'categoryId'] },
  { name: 'blog-post-tags', table: blogPostTags, where: under(blogPostTags.postId, blogPosts), omit: [], key: ['postId', 'tagId'] },
  rowResource('page-redirects', pageSlugHistory, { refs: { pageId: 'pages' } }),
  { name: 'item-redirects', table: itemSlugHistory, where: under(itemSlugHistory.itemId, collectionItems), omit: [], key: ['id'], refs: { itemId: 'items', collectionTypeId: 'collections' } },
  rowResource('webhooks', webhooks, {
    omit: ['projectId', 'secret', 'previousSecret', 'previousSecretExpiresAt'],
    fill: () => ({ secret: generateSecret(), previousSecret: null, previousSecretExpiresAt: null }),
  }),
  { name: 'page-versions', table: pageVersions, where: under(pageVersions.pageId, pages), omit: [], key: ['id'], versions: true, refs: { pageId: 'pages' } },
  { name: 'item-versions', table: itemVersions, where: under(itemVersions.itemId, collectionItems), omit: [], key: ['id'], versions: true, refs: { itemId: 'items' } },
];

export const archiveResourceNames = archiveResources.map((r) => r.name);

const columnsOf = (table: PgTable) => Object.entries(getTableColumns(table));
const timestampColumns = (table: PgTable) => new Set(columnsOf(table).filter(([, c]) => c.columnType === 'PgTimestamp').map(([k]) => k));
const keyOf = (def: ResourceDef, row: Row) => def.key.map((k) => String(row[k])).join(':');

/** A stored row as the archive keeps it: dates as ISO strings, omitted columns gone. */
function toArchiveRow(def: ResourceDef, row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    if (def.omit.includes(k)) continue;
    out[k] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}

async function readRows(db: Db, def: ResourceDef, projectId: string, extra?: SQL): Promise<Row[]> {
  const orderBy = def.key.map((k) => asc(getTableColumns(def.table)[k]!));
  const rows: Row[] = await db.select().from(def.table).where(extra ? and(def.where(db, projectId), extra) : def.where(db, projectId)).orderBy(...orderBy);
  return rows.map((r) => toArchiveRow(def, r));
}

async function streamBytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const projectSettings = z.strictObject({
  locales: z.array(z.strictObject({ code: codeSchema, name: z.string(), fallback: codeSchema.nullable() })).min(1),
  defaultLocale: codeSchema,
}).superRefine((pl, issues) => {
  // The rules `cms locales` keeps: a known default, fallbacks to known locales and no circles.
  if (!pl.locales.some((l) => l.code === pl.defaultLocale)) issues.addIssue({ code: 'custom', path: ['defaultLocale'], message: `"${pl.defaultLocale}" is not one of the locales` });
  for (const l of pl.locales) {
    try { checkFallback(pl, l.code, l.fallback); } catch (e) { issues.addIssue({ code: 'custom', path: ['locales'], message: e instanceof Error ? e.message : String(e) }); }
  }
});

export const exportProject = defineOperation({
  name: 'project.export',
  input: z.strictObject({ versions: z.boolean().default(false) }),
  // The whole project, with webhooks and every draft: for those who run the project.
  access: { role: 'admin' },
  write: false,
  async run(ctx, input) {
    const [project] = await ctx.db.select({ locales: projects.locales, defaultLocale: projects.defaultLocale }).from(projects).where(eq(projects.id, ctx.project.id));
    const resources: Record<string, Row[]> = {};
    for (const def of archiveResources) {
      if (def.versions && !input.versions) continue;
      resources[def.name] = await readRows(ctx.db, def, ctx.project.id);
    }
    // Each stored file once (rows may share bytes); a file missing from the store is left out.
    const store = mediaFilesOf(ctx);
    const files: Array<{ filename: string; data: string }> = [];
    const names = [...new Set((resources.media ?? []).map((m) => String(m.filename)))].sort();
    const missing: string[] = [];
    for (const filename of names) {
      const at = locationOf(ctx, filename);
      if (!(await store.stat(at))) { missing.push(filename); continue; }
      files.push({ filename, data: Buffer.from(await streamBytes(await store.open(at))).toString('base64') });
    }
    return {
      format: archiveFormat,
      version: archiveVersion,
      project: { slug: ctx.project.slug, locales: project?.locales ?? [], defaultLocale: project?.defaultLocale ?? 'en' },
      versions: input.versions,
      resources,
      files,
      missingFiles: missing,
    };
  },
});

const mediaFilename = /^[0-9a-f]{64}\.[a-z0-9]{1,10}$/;

const importInput = z.strictObject({
  project: projectSettings,
  resources: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
  files: z.array(z.strictObject({ filename: z.string().regex(mediaFilename), data: z.string() })).default([]),
  overwrite: z.boolean().default(false),
});
type ImportInput = z.output<typeof importInput>;

export interface ImportConflict {
  resource: string;
  id: string;
  reason: string;
}

export interface ImportReport {
  resources: Record<string, { created: number; unchanged: number; overwritten: number; conflicts: number }>;
  conflicts: ImportConflict[];
  locales: 'unchanged' | 'replaced' | 'added' | 'conflict';
  files: { written: number; present: number };
}

const invalid = (message: string, details?: unknown) => new CmsError('INVALID_ARCHIVE', message, details);

/** Checks every row's columns against its table before anything is written. */
function checkRows(input: ImportInput): void {
  const known = new Set(archiveResourceNames);
  for (const name of Object.keys(input.resources)) {
    if (!known.has(name)) throw invalid(`The archive has an unknown resource "${name}"`, [{ path: `resources.${name}`, message: 'unknown resource' }]);
  }
  for (const def of archiveResources) {
    const columns = new Set(columnsOf(def.table).map(([k]) => k).filter((k) => !def.omit.includes(k)));
    const rows = input.resources[def.name] ?? [];
    rows.forEach((row, i) => {
      for (const k of Object.keys(row)) {
        if (!columns.has(k)) throw invalid(`${def.name}[${i}] has an unknown column "${k}"`, [{ path: `resources.${def.name}[${i}].${k}`, message: 'unknown column' }]);
      }
      for (const k of def.key) {
        if (typeof row[k] !== 'string') throw invalid(`${def.name}[${i}] has no ${k}`, [{ path: `resources.${def.name}[${i}].${k}`, message: 'required' }]);
      }
    });
  }
}

/** An archive row as the table takes it: dates back to Dates, the project id set. */
function toStoredRow(def: ResourceDef, row: Row, projectId: string): Row {
  const dates = timestampColumns(def.table);
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) out[k] = dates.has(k) && typeof v === 'string' ? new Date(v) : v;
  if (def.omit.includes('projectId')) out.projectId = projectId;
  return out;
}

const importRows = defineOperation({
  name: 'project.importRows',
  input: importInput,
  access: { role: 'admin' },
  write: true,
  async run(ctx, input): Promise<Omit<ImportReport, 'files'>> {
    const report: Omit<ImportReport, 'files'> = { resources: {}, conflicts: [], locales: 'unchanged' };
    report.locales = await importLocales(ctx, input);
    // Rows whose id this project holds after the import: link rows only join those.
    const present = new Map<string, Set<string>>();
    for (const def of archiveResources) {
      const rows = input.resources[def.name];
      if (!rows) continue;
      const counts = { created: 0, unchanged: 0, overwritten: 0, conflicts: 0 };
      report.resources[def.name] = counts;
      const ids = new Set<string>();
      present.set(def.name, ids);
      if (def.key.length > 1) {
        // A link (a post's category or tag) has no content besides its key: added when both ends are here.
        const [a, b] = def.key as [string, string];
        const ends: Record<string, string> = { postId: 'blog-posts', categoryId: 'blog-categories', tagId: 'blog-tags' };
        const fresh = rows.filter((r) => present.get(ends[a]!)?.has(String(r[a])) && present.get(ends[b]!)?.has(String(r[b])));
        if (fresh.length) {
          const added = await ctx.db.insert(def.table).values(fresh).onConflictDoNothing().returning();
          counts.created += added.length;
          counts.unchanged += fresh.length - added.length;
        }
        for (const r of rows.filter((x) => !fresh.includes(x))) {
          counts.conflicts++;
          report.conflicts.push({ resource: def.name, id: keyOf(def, r), reason: 'links a row that was not imported' });
        }
        continue;
      }
      const idColumn = getTableColumns(def.table).id!;
      const versioned = 'version' in getTableColumns(def.table) && !def.versions;
      const existing = new Map<string, Row>();
      const projectOf = new Map<string, string>();
      const wanted = rows.map((r) => String(r.id));
      for (let i = 0; i < wanted.length; i += 500) {
        const slice = wanted.slice(i, i + 500);
        const found: Row[] = await ctx.db.select().from(def.table).where(inArray(idColumn, slice));
        for (const f of found) {
          existing.set(String(f.id), toArchiveRow(def, f));
          if (typeof f.projectId === 'string') projectOf.set(String(f.id), f.projectId);
        }
      }
      const inserts: Row[] = [];
      const conflict = (id: string, reason: string) => {
        counts.conflicts++;
        report.conflicts.push({ resource: def.name, id, reason });
      };
      // A new row whose referent was skipped, or whose unique value another row of the project holds, is a conflict.
      const missingRef = (row: Row): string | null => {
        for (const [column, resource] of Object.entries(def.refs ?? {})) {
          const value = row[column];
          if (value !== null && value !== undefined && !present.get(resource)?.has(String(value))) return `refers to ${resource} ${String(value)}, which was not imported`;
        }
        return null;
      };
      const taken = await uniqueValuesOf(ctx, def);
      const uniqueKey = (row: Row) => (def.unique ? def.unique.columns.map((c) => String(row[c])).join('\u0001') : '');
      const isLive = (row: Row) => !def.unique?.live || row.deletedAt === null || row.deletedAt === undefined;
      for (const row of rows) {
        const id = String(row.id);
        const old = existing.get(id);
        if (!old) {
          const ref = missingRef(row);
          if (ref) { conflict(id, ref); continue; }
          const holder = def.unique && isLive(row) ? taken.get(uniqueKey(row)) : undefined;
          if (holder !== undefined && holder !== id) {
            const shown = (def.unique?.columns ?? []).filter((c) => !c.endsWith('Id'));
            conflict(id, `${shown.join(', ')} "${shown.map((c) => String(row[c])).join(', ')}" is taken by ${holder}`);
            continue;
          }
          inserts.push({ ...toStoredRow(def, row, ctx.project.id), ...def.fill?.() });
          ids.add(id);
          continue;
        }
        const owner = projectOf.get(id);
        if (def.omit.includes('projectId') && owner !== ctx.project.id) { conflict(id, 'the id belongs to another project'); continue; }
        // A row that is there already under a referent that was not imported (a version of a page
        // of another project) is that referent's, not this import's.
        const stray = missingRef(row);
        if (stray) { conflict(id, stray); continue; }
        ids.add(id);
        // An entry's version counts its changes: one that differs only in it is unchanged.
        const counted = versioned && typeof old.version === 'number' && typeof row.version === 'number';
        const sameContent = counted ? canonicalJson({ ...old, version: 0 }) === canonicalJson({ ...row, version: 0 }) : canonicalJson(old) === canonicalJson(row);
        if (sameContent) { counts.unchanged++; continue; }
        if (!input.overwrite) { conflict(id, 'exists with different content'); continue; }
        // Columns the archive leaves out (a webhook's secret) keep their values.
        const stored = toStoredRow(def, row, ctx.project.id);
        // Put back, an entry is changed once more: its version goes on from the higher of the two,
        // never back (a client holding a number in between would match it, and the next
        // snapshot would take a number the history has).
        if (counted) stored.version = Math.max(Number(old.version), Number(row.version)) + 1;
        await ctx.db.update(def.table).set(stored).where(eq(idColumn, id));
        counts.overwritten++;
      }
      for (let i = 0; i < inserts.length; i += 200) await ctx.db.insert(def.table).values(inserts.slice(i, i + 200));
      counts.created += inserts.length;
    }
    ctx.contentChanged();
    ctx.services.statistics.rowsWritten();
    return report;
  },
});

/** The project's unique values of a resource (live rows only where `live`), to the id holding each. */
async function uniqueValuesOf(ctx: Ctx, def: ResourceDef): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!def.unique) return out;
  const rows: Row[] = await ctx.db.select().from(def.table).where(def.where(ctx.db, ctx.project.id));
  for (const row of rows) {
    if (def.unique.live && row.deletedAt) continue;
    out.set(def.unique.columns.map((c) => String(row[c])).join('\u0001'), String(row.id));
  }
  return out;
}

/**
 * The project's locales: a project without content takes the archive's; otherwise locales the
 * archive adds are added, and a different default locale (the locale of every entry's content
 * columns) is a conflict that even --overwrite leaves alone.
 */
async function importLocales(ctx: Ctx, input: ImportInput): Promise<ImportReport['locales']> {
  // Through the locales' own reads and writes: the project row locked, caches dropped after.
  const current = await lockedLocales(ctx);
  const wanted = input.project;
  if (canonicalJson(current.locales) === canonicalJson(wanted.locales) && current.defaultLocale === wanted.defaultLocale) return 'unchanged';
  const hasContent = (await Promise.all([pages, collectionItems, blogPosts].map((t) => ctx.db.select({ id: t.id }).from(t).where(eq(t.projectId, ctx.project.id)).limit(1))))
    .some((r) => r.length > 0);
  if (!hasContent) {
    await saveLocales(ctx, wanted);
    return 'replaced';
  }
  const codes = new Set(current.locales.map((l) => l.code));
  const added = wanted.locales.filter((l) => !codes.has(l.code));
  if (added.length) await saveLocales(ctx, { defaultLocale: current.defaultLocale, locales: [...current.locales, ...added] });
  return current.defaultLocale !== wanted.defaultLocale ? 'conflict' : added.length ? 'added' : 'unchanged';
}

/** The driver's own words under drizzle's "Failed query" wrapper. */
function innermostMessage(e: unknown): string {
  let cur: unknown = e;
  while (cur instanceof Error && cur.cause instanceof Error) cur = cur.cause;
  return cur instanceof Error ? cur.message : String(cur);
}

export const importProject = defineOperation({
  name: 'project.import',
  input: importInput,
  access: { role: 'admin' },
  // Files are written first, outside the transaction of the rows (runWrite), and removed again
  // when the rows fail: a read operation that runs its write.
  write: false,
  async run(ctx, input): Promise<ImportReport> {
    checkRows(input);
    const files = mediaFilesOf(ctx);
    const written: string[] = [];
    let present = 0;
    const decoded = input.files.map((f, i) => {
      const bytes = new Uint8Array(Buffer.from(f.data, 'base64'));
      if (`${sha256Hex(bytes)}.${f.filename.split('.')[1]}` !== f.filename) {
        throw invalid(`The media file ${f.filename} does not match its checksum`, [{ path: `files[${i}]`, message: 'checksum mismatch' }]);
      }
      return { filename: f.filename, bytes };
    });
    try {
      for (const f of decoded) {
        const at = locationOf(ctx, f.filename);
        if (await files.stat(at)) { present++; continue; }
        await files.put(at, f.bytes);
        written.push(f.filename);
      }
      const report = await ctx.runWrite(importRows, input, null);
      return { ...report, files: { written: written.length, present } };
    } catch (e) {
      for (const filename of written) await files.remove(locationOf(ctx, filename)).catch(() => {});
      // Rows the database refuses (a missing column value, a wrong type) mean a damaged archive.
      if (e instanceof CmsError) throw e;
      throw invalid(`The database refused a row of the archive (${innermostMessage(e)}); nothing was imported`);
    }
  },
});
