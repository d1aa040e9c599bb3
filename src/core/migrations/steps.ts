// The writes of a running migration. The runner (src/importers/) does the network work and hands
// each batch here, to the step operation of its kind (schema, media, entries, finish, blog terms,
// authors, posts; `migrations.step` records without a batch): one transaction that also records
// the migration's progress, stats and log lines, and applies a pause request once the batch is in.
// These operations are not in the registry: only a runner in this process reaches them.

import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import {
  blogPostCategories, blogPostTags, collectionItems, itemVersions, media, migrationLogs, migrations, pages, pageVersions, webhookDeliveries,
} from '../../db/schema/index.js';
import type { MigrationProgress } from '../../db/schema/ops.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { Ctx } from '../context.js';
import { createEntry, publishEntry, updateEntry } from '../content/entries.js';
import { findFreeSlug } from '../content/free-slug.js';
import { storeOf, type EntryKind } from '../content/store.js';
import { CmsError, isCmsError } from '../errors.js';
import { mediaFileUrl } from '../media/resolve.js';
import { altText as altTextSchema, originalFilename } from '../media/schemas.js';
import { storeUpload } from '../media/upload.js';
import { defineOperation, parseInput } from '../operation.js';
import { createPost } from '../blog/posts.js';
import { authorOperations, categoryOperations, tagOperations } from '../blog/taxonomies.js';
import { blogAuthors, blogCategories, blogPosts, blogTags } from '../../db/schema/index.js';
import { checkSchemaSet, slugPattern, validateTypeDefinition, type TypeDefinition } from '../schema/index.js';
import { loadSchemaSet, typeKinds, type TypeKind } from '../types/operations.js';
import { collectionTypes, components, pageTypes } from '../../db/schema/index.js';
import { applyImportLocales, entryLocalesSchema, localesWriteSchema, writeEntryLocales, type LocalesWriteResult } from './locales.js';
import { lockMigrationState, writeLogs } from './records.js';
import { isRunningStatus, logLineSchema, type MigrationLogLine, type MigrationStatus } from './schemas.js';
import { cutText } from '../../lib/cut-text.js';

// ------------------------------------------------------------------------------------------------
// What every step records on its migration, besides its batch.

const progressSchema = z.object({ phase: z.string(), done: z.number(), total: z.number() });

const stepRecordFields = {
  id: z.string(),
  runnerId: z.string(),
  status: z.enum(['validating', 'importing', 'completed', 'failed']).optional(),
  progress: progressSchema.optional(),
  /**
   * Counters the runner keeps (source requests, warnings), set over the stored stats. What a batch
   * wrote is counted here, with the batch, so stats are exact whenever the record is read.
   */
  stats: z.record(z.string(), z.number()).optional(),
  /** Counters to add to (e.g. downloads the runner skipped). */
  statsAdd: z.record(z.string(), z.number()).optional(),
  report: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
  logs: z.array(logLineSchema).optional(),
};

/** What a runner may set on its migration with any step: status, progress, stats, report, logs. */
export type StepRecord = Omit<z.input<z.ZodObject<typeof stepRecordFields>>, 'id' | 'runnerId'>;

export interface StepOutput<R> {
  /** What the step's batch wrote (null for a step that only records). */
  result: R;
  /** The stats as stored after this step. */
  stats: Record<string, number>;
  /** A pause was asked for: it took effect with this batch, and the runner stops here. */
  paused: boolean;
  status: string;
}

// ------------------------------------------------------------------------------------------------
// Batch payloads, one per kind of write.

const records = z.record(z.string(), z.unknown());
/** A whole definition as the runner made it; the schema rules check it when it is applied. */
const typeDefinitionInput = z.object({ slug: z.string(), name: z.string(), fields: z.array(z.unknown()) });
const entryKindSchema = z.enum(['page', 'item']);
const skippedSchema = { code: z.string(), reason: z.string(), details: z.unknown().optional() };

const schemaWriteSchema = z.strictObject({
  /** As they are to be stored (merged with what the project had, by the runner). */
  components: z.array(typeDefinitionInput),
  pageTypes: z.array(typeDefinitionInput),
  collections: z.array(typeDefinitionInput),
  /** An import in several locales: the project's locales to add (and its default, when it was empty), in this transaction. */
  locales: localesWriteSchema.optional(),
});
export type SchemaWrite = z.input<typeof schemaWriteSchema>;

const mediaFileSchema = z.object({
  /** The source URL, echoed back as the key of the answer. */
  url: z.string(),
  data: z.custom<Uint8Array<ArrayBuffer>>((v) => v instanceof Uint8Array, 'must be the file\'s bytes'),
  filename: z.string(),
  altText: z.string().optional(),
});
export type MediaFileInput = z.input<typeof mediaFileSchema>;
const mediaWriteSchema = z.strictObject({
  files: z.array(mediaFileSchema),
  /** Alt texts for media already imported (a post's featured image found earlier in a page): set where the media has none. */
  altTexts: z.array(z.object({ id: z.string(), altText: z.string() })).optional(),
});
export type MediaWrite = z.input<typeof mediaWriteSchema>;

/**
 * The source's own times of an entry, kept over the import's: written over the times the step's
 * own writes set, by every step that writes the entry. A time still to come is ignored;
 * `updatedAt` is never before `createdAt`.
 */
const sourceTimesSchema = z.object({ createdAt: z.string().optional(), updatedAt: z.string().optional() });
export type SourceTimes = z.input<typeof sourceTimesSchema>;

const newEntrySchema = z.object({
  /** The runner's own key for the entry (a source slug or item id), echoed back with its id. */
  key: z.string(),
  typeSlug: z.string(),
  name: z.string(),
  slug: z.string(),
  fields: records,
  seo: records.optional(),
  status: z.enum(['draft', 'published']),
  /** ISO time the source published it; kept as publishedAt when the entry is published. */
  publishedAt: z.string().optional(),
  /** A draft the source has scheduled: the scheduler publishes it then, when that is still to come. */
  publishAt: z.string().optional(),
  sourceTimes: sourceTimesSchema.optional(),
  /** Localized fields' values in the other locales (references as in `fields`), and a page's SEO in them. */
  locales: entryLocalesSchema.optional(),
  seoLocales: entryLocalesSchema.optional(),
});
export type NewEntry = z.input<typeof newEntrySchema>;
const entriesWriteSchema = z.strictObject({
  entryKind: entryKindSchema,
  /** In order: an entry's references point at entries created before it (see `refIds`). */
  entries: z.array(newEntrySchema),
  /**
   * Local ids of entries created by earlier batches, by the runner's key. A reference written as
   * `{ _ref: "@ref:<key>", _type }` is pointed at the entry of that key: one from here, or one
   * created earlier in this batch.
   */
  refIds: z.record(z.string(), z.string()).optional(),
});
export type EntriesWrite = z.input<typeof entriesWriteSchema>;

const finishEntrySchema = z.object({
  id: z.string(),
  /** Top-level fields to set (the ones holding references); others stay as created. */
  fields: records,
  publish: z.boolean(),
  publishedAt: z.string().optional(),
  sourceTimes: sourceTimesSchema.optional(),
  /** Localized fields' values in the other locales (references resolved), and a page's SEO in them. */
  locales: entryLocalesSchema.optional(),
  seoLocales: entryLocalesSchema.optional(),
});
export type FinishEntry = z.input<typeof finishEntrySchema>;
const finishWriteSchema = z.strictObject({ entryKind: entryKindSchema, entries: z.array(finishEntrySchema) });
export type FinishWrite = z.input<typeof finishWriteSchema>;

const blogTermSchema = z.object({ name: z.string(), slug: z.string() });
const blogTermsWriteSchema = z.strictObject({ categories: z.array(blogTermSchema), tags: z.array(blogTermSchema) });
export type BlogTermsWrite = z.input<typeof blogTermsWriteSchema>;

const blogAuthorSchema = z.object({
  /** The runner's key (the source slug), echoed back with the id. */
  key: z.string(),
  slug: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  bio: z.string(),
  title: z.string(),
  profileImageId: z.string().nullable(),
  links: z.record(z.string(), z.string()),
});
export type BlogAuthorInput = z.input<typeof blogAuthorSchema>;
const blogAuthorsWriteSchema = z.strictObject({ authors: z.array(blogAuthorSchema) });
export type BlogAuthorsWrite = z.input<typeof blogAuthorsWriteSchema>;

const blogPostSchema = z.object({
  key: z.string(),
  title: z.string(),
  slug: z.string(),
  body: z.string(),
  summary: z.string(),
  status: z.enum(['draft', 'published']),
  publishedAt: z.string().nullable(),
  featuredImageId: z.string().nullable(),
  authorId: z.string().nullable(),
  categoryIds: z.array(z.string()),
  tagIds: z.array(z.string()),
  seo: records,
  sourceTimes: sourceTimesSchema.optional(),
});
export type BlogPostInput = z.input<typeof blogPostSchema>;
const blogPostsWriteSchema = z.strictObject({ posts: z.array(blogPostSchema) });
export type BlogPostsWrite = z.input<typeof blogPostsWriteSchema>;

// ------------------------------------------------------------------------------------------------
// What each kind of write answers.

export interface SchemaWriteResult {
  created: Array<{ kind: TypeKind; slug: string }>;
  updated: Array<{ kind: TypeKind; slug: string }>;
  unchanged: Array<{ kind: TypeKind; slug: string }>;
  /** What changed of the project's locales (only when the write asked for locales). */
  locales?: LocalesWriteResult;
}

export interface StoredMediaRef {
  id: string;
  /** The public file URL (what HTML that embedded the source URL is rewritten to). */
  fileUrl: string;
  /** The file's type, sniffed from its bytes: image fields holding other files become media fields. */
  mimeType: string;
}

export interface MediaWriteResult {
  byUrl: Record<string, StoredMediaRef>;
  imported: number;
  deduplicated: number;
  skipped: Array<{ url: string; reason: string }>;
}

type Skipped<K extends string> = Array<{ [P in K]: string } & { code: string; reason: string; details?: unknown }>;

export interface EntriesWriteResult {
  entryKind: EntryKind;
  ids: Record<string, string>;
  created: number;
  /** Slugs taken already (by an earlier import, say) were made unique. */
  renamed: Array<{ key: string; from: string; to: string }>;
  skipped: Skipped<'key'>;
  /** References whose target was not created (it was skipped): dropped. */
  dropped: Array<{ key: string; target: string }>;
  /** Other locales' values that broke a field rule: left out of the entry (an import in several locales). */
  localesLeftOut?: Array<{ key: string; reason: string }>;
}

export interface FinishWriteResult {
  done: number;
  skipped: Skipped<'id'>;
  localesLeftOut?: Array<{ id: string; reason: string }>;
}

export interface BlogTermsWriteResult {
  categories: Record<string, string>;
  tags: Record<string, string>;
  /** How many of each were created, and how many matched terms the project had (by slug). */
  created: { categories: number; tags: number };
  matched: { categories: number; tags: number };
}

export interface BlogAuthorsWriteResult {
  ids: Record<string, string>;
  created: number;
  /** Matched to an author that existed (by email, then slug, then name). */
  matched: Array<{ key: string; by: 'email' | 'slug' | 'name'; id: string }>;
  skipped: Skipped<'key'>;
}

export interface BlogPostsWriteResult {
  ids: Record<string, string>;
  created: number;
  renamed: Array<{ key: string; from: string; to: string }>;
  skipped: Skipped<'key'>;
}

// ------------------------------------------------------------------------------------------------
// The step operations: one that only records, and one per kind of write. Each runs its batch
// and the record's update in one transaction.

const notOurs = (id: string, status: string) =>
  new CmsError('MIGRATION_STATE', `Migration ${id} is no longer run by this process (it is ${status})`, { status });

type StepRecordInput = z.output<z.ZodObject<typeof stepRecordFields>>;

/**
 * Checks the migration is still this runner's, applies the batch, counts what it wrote into the
 * stats, and records status, progress, report and log lines (and a pause asked for meanwhile).
 */
async function runStep<R>(
  ctx: Ctx, input: StepRecordInput, apply: () => Promise<R>, countsOf: (result: R) => Record<string, number>,
): Promise<StepOutput<R>> {
  const row = await lockMigrationState(ctx.db, ctx.project.id, input.id);
  if (!isRunningStatus(row.status) || row.runnerId !== input.runnerId) throw notOurs(row.id, row.status);
  const result = await apply();
  const now = ctx.clock.now();
  const finishing = input.status === 'completed' || input.status === 'failed';
  const pausing = !finishing && row.pauseRequested !== null;
  const status = pausing ? 'paused' : input.status ?? row.status;
  const stats: Record<string, number> = { ...row.stats, ...(input.stats ?? {}) };
  for (const [k, v] of Object.entries({ ...(input.statsAdd ?? {}) })) stats[k] = (stats[k] ?? 0) + v;
  for (const [k, v] of Object.entries(countsOf(result))) stats[k] = (stats[k] ?? 0) + v;
  const logs = [...(input.logs ?? [])];
  if (pausing) logs.push({ level: 'info', message: 'Paused after the current batch; a paused migration cannot be resumed (create a new one to import again)' });
  await ctx.db.update(migrations).set({
    status,
    heartbeatAt: now,
    updatedAt: now,
    ...(input.progress ? { progress: input.progress } : {}),
    stats,
    ...(input.report ? { report: input.report } : {}),
    ...(input.error !== undefined ? { error: input.error } : {}),
    ...(finishing || pausing ? { finishedAt: now } : {}),
  }).where(eq(migrations.id, row.id));
  await writeLogs(ctx.db, row.id, logs, now);
  return { result, stats, paused: pausing, status };
}

/** Only the runner of the migration, in this process, runs steps: no member or key may. */
const runnerOnly = { role: null };
const nothingWritten = () => ({});

/** Records status, progress, stats, report or log lines, with no batch. */
export const migrationStep = defineOperation({
  name: 'migrations.step',
  input: z.strictObject(stepRecordFields),
  access: runnerOnly,
  write: true,
  run: (ctx, input): Promise<StepOutput<null>> => runStep(ctx, input, async () => null, nothingWritten),
});

/** Stores the imported schema (components, collections, page types). */
export const migrationSchemaStep = defineOperation({
  name: 'migrations.step.schema',
  input: z.strictObject({ ...stepRecordFields, write: schemaWriteSchema }),
  access: runnerOnly,
  write: true,
  run: (ctx, input): Promise<StepOutput<SchemaWriteResult>> => runStep(ctx, input, () => applySchema(ctx, input.write), (result) => {
    const n = (kind: TypeKind) => [...result.created, ...result.updated, ...result.unchanged].filter((t) => t.kind === kind).length;
    return { components: n('components'), pageTypes: n('pageTypes'), collections: n('collections') };
  }),
});

/** Stores a batch of downloaded files. */
export const migrationMediaStep = defineOperation({
  name: 'migrations.step.media',
  input: z.strictObject({ ...stepRecordFields, write: mediaWriteSchema }),
  access: runnerOnly,
  write: true,
  run: (ctx, input): Promise<StepOutput<MediaWriteResult>> => runStep(ctx, input, () => storeMedia(ctx, input.write), (result) => (
    { media: result.imported, mediaDeduplicated: result.deduplicated, mediaSkipped: result.skipped.length }
  )),
});

/** Creates a batch of pages or collection items (pass one). */
export const migrationEntriesStep = defineOperation({
  name: 'migrations.step.entries',
  input: z.strictObject({ ...stepRecordFields, write: entriesWriteSchema }),
  access: runnerOnly,
  write: true,
  run: (ctx, input): Promise<StepOutput<EntriesWriteResult>> => runStep(ctx, input, () => createEntries(ctx, input.write), (result) => (
    { [result.entryKind === 'page' ? 'pages' : 'collectionItems']: result.created, skipped: result.skipped.length }
  )),
});

/** Sets the references of a batch of entries and publishes them (pass two). */
export const migrationFinishStep = defineOperation({
  name: 'migrations.step.finish',
  input: z.strictObject({ ...stepRecordFields, write: finishWriteSchema }),
  access: runnerOnly,
  write: true,
  run: (ctx, input): Promise<StepOutput<FinishWriteResult>> => runStep(ctx, input, () => finishEntries(ctx, input.write), (result) => (
    { skipped: result.skipped.length }
  )),
});

/** Creates (or matches) the blog's categories and tags. */
export const migrationBlogTermsStep = defineOperation({
  name: 'migrations.step.blogTerms',
  input: z.strictObject({ ...stepRecordFields, write: blogTermsWriteSchema }),
  access: runnerOnly,
  write: true,
  run: (ctx, input): Promise<StepOutput<BlogTermsWriteResult>> => runStep(ctx, input, () => importBlogTerms(ctx, input.write), (result) => (
    {
      blogCategories: result.created.categories, blogCategoriesMatched: result.matched.categories,
      blogTags: result.created.tags, blogTagsMatched: result.matched.tags,
    }
  )),
});

/** Creates (or matches) the blog's authors. */
export const migrationBlogAuthorsStep = defineOperation({
  name: 'migrations.step.blogAuthors',
  input: z.strictObject({ ...stepRecordFields, write: blogAuthorsWriteSchema }),
  access: runnerOnly,
  write: true,
  run: (ctx, input): Promise<StepOutput<BlogAuthorsWriteResult>> => runStep(ctx, input, () => importBlogAuthors(ctx, input.write), (result) => (
    { blogAuthors: result.created, blogAuthorsMatched: result.matched.length, skipped: result.skipped.length }
  )),
});

/** Creates a batch of blog posts. */
export const migrationBlogPostsStep = defineOperation({
  name: 'migrations.step.blogPosts',
  input: z.strictObject({ ...stepRecordFields, write: blogPostsWriteSchema }),
  access: runnerOnly,
  write: true,
  run: (ctx, input): Promise<StepOutput<BlogPostsWriteResult>> => runStep(ctx, input, () => importBlogPosts(ctx, input.write), (result) => (
    { blogPosts: result.created, skipped: result.skipped.length }
  )),
});

/** The runner's sign of life between batches; false when the migration is no longer its own. */
export const migrationHeartbeat = defineOperation({
  name: 'migrations.heartbeat',
  input: z.strictObject({ id: z.string(), runnerId: z.string() }),
  access: { role: null },
  write: true,
  async run(ctx, input): Promise<boolean> {
    const now = ctx.clock.now();
    const rows = await ctx.db.update(migrations).set({ heartbeatAt: now })
      .where(and(eq(migrations.id, input.id), eq(migrations.projectId, ctx.project.id), eq(migrations.runnerId, input.runnerId),
        inArray(migrations.status, ['mapping', 'validating', 'importing'])))
      .returning({ id: migrations.id });
    return rows.length > 0;
  },
});

/** Marks the migration failed when its runner gives up (e.g. the process is stopping). */
export const migrationAbandon = defineOperation({
  name: 'migrations.abandon',
  input: z.strictObject({
    id: z.string(), runnerId: z.string(), error: z.string(), logs: z.array(logLineSchema),
    /** The runner's own counters, set over the stored stats. */
    stats: z.record(z.string(), z.number()).optional(),
  }),
  access: { role: null },
  write: true,
  async run(ctx, input): Promise<boolean> {
    const now = ctx.clock.now();
    const stats = input.stats ? sql`${migrations.stats} || ${JSON.stringify(input.stats)}::jsonb` : undefined;
    const rows = await ctx.db.update(migrations).set({ status: 'failed', error: input.error, finishedAt: now, updatedAt: now, heartbeatAt: now, ...(stats ? { stats } : {}) })
      .where(and(eq(migrations.id, input.id), eq(migrations.projectId, ctx.project.id), eq(migrations.runnerId, input.runnerId),
        inArray(migrations.status, ['mapping', 'validating', 'importing'])))
      .returning({ id: migrations.id });
    if (rows.length) await writeLogs(ctx.db, input.id, input.logs, now);
    return rows.length > 0;
  },
});

// ------------------------------------------------------------------------------------------------

const typeTables = { pageTypes, collections: collectionTypes, components } as const;

async function applySchema(ctx: Ctx, write: SchemaWrite): Promise<SchemaWriteResult> {
  const current = await loadSchemaSet(ctx.db, ctx.project.id);
  const issues: Array<{ kind: TypeKind; slug: string; path: string; message: string }> = [];
  const next = { ...current };
  const given = new Set<string>();
  for (const kind of typeKinds) {
    const bySlug = new Map(current[kind].map((d) => [d.slug, d]));
    for (const def of write[kind]) {
      const checked = validateTypeDefinition(def);
      if (!checked.ok) {
        for (const i of checked.issues) issues.push({ kind, slug: def.slug, path: i.path, message: i.message });
        continue;
      }
      bySlug.set(def.slug, checked.value);
      given.add(`${kind}/${def.slug}`);
    }
    next[kind] = [...bySlug.values()];
  }
  for (const i of checkSchemaSet(next)) if (given.has(`${i.kind}/${i.slug}`)) issues.push(i);
  if (issues.length) {
    throw new CmsError('VALIDATION_FAILED',
      `The imported schema has ${issues.length} problem${issues.length === 1 ? '' : 's'}: ` +
      issues.slice(0, 20).map((i) => `${i.kind}/${i.slug}: ${i.path}: ${i.message}`).join('; '), issues);
  }
  const result: SchemaWriteResult = { created: [], updated: [], unchanged: [] };
  // The locales first: a localized field means something only once the project has them.
  if (write.locales) result.locales = await applyImportLocales(ctx, write.locales);
  const now = ctx.clock.now();
  // Components first, so no type ever points at a missing one; all in this one transaction.
  for (const kind of ['components', 'collections', 'pageTypes'] as const) {
    const t = typeTables[kind];
    const before = new Map(current[kind].map((d) => [d.slug, d]));
    for (const def of next[kind]) {
      if (!given.has(`${kind}/${def.slug}`)) continue;
      const old = before.get(def.slug);
      if (!old) {
        await ctx.db.insert(t).values({ projectId: ctx.project.id, slug: def.slug, name: def.name, fields: def.fields, createdAt: now, updatedAt: now });
        result.created.push({ kind, slug: def.slug });
      } else if (JSON.stringify(old.fields) !== JSON.stringify(def.fields) || old.name !== def.name) {
        await ctx.db.update(t).set({ name: def.name, fields: def.fields, updatedAt: now })
          .where(and(eq(t.projectId, ctx.project.id), eq(t.slug, def.slug)));
        result.updated.push({ kind, slug: def.slug });
      } else {
        result.unchanged.push({ kind, slug: def.slug });
      }
    }
  }
  ctx.contentChanged();
  return result;
}

/** Per-file problems that the upload code reports before it writes anything. */
const skippableUpload = new Set(['VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE']);

/**
 * Stores downloaded files. Media is matched by the SHA-256 of its bytes: bytes
 * already in the project, from this import or an earlier one, reuse that media.
 */
async function storeMedia(ctx: Ctx, write: MediaWrite): Promise<MediaWriteResult> {
  const result: MediaWriteResult = { byUrl: {}, imported: 0, deduplicated: 0, skipped: [] };
  for (const { id, altText } of write.altTexts ?? []) {
    const alt = altTextSchema.safeParse(cutText(altText, 1000));
    if (!alt.success || !alt.data) continue;
    await ctx.db.update(media).set({ altText: alt.data })
      .where(and(eq(media.id, id), eq(media.projectId, ctx.project.id), isNull(media.altText)));
  }
  const fileUrl = (filename: string) => mediaFileUrl(ctx.settings.baseUrl, ctx.project.slug, filename);
  for (const file of write.files) {
    const sha256 = sha256Hex(file.data);
    const [existing] = await ctx.db.select({ id: media.id, filename: media.filename, mimeType: media.mimeType, altText: media.altText }).from(media)
      .where(and(eq(media.projectId, ctx.project.id), eq(media.sha256, sha256), isNull(media.deletedAt)))
      .orderBy(asc(media.createdAt), asc(media.id)).limit(1);
    const alt = file.altText ? altTextSchema.safeParse(cutText(file.altText, 1000)) : null;
    if (existing) {
      // The same file found again (another URL of it, an earlier import): it keeps its alt text,
      // and gets this one's when it has none (a post's featured image alt, say).
      if (alt?.success && alt.data && !existing.altText) {
        await ctx.db.update(media).set({ altText: alt.data }).where(eq(media.id, existing.id));
      }
      result.byUrl[file.url] = { id: existing.id, fileUrl: fileUrl(existing.filename), mimeType: existing.mimeType };
      result.deduplicated += 1;
      continue;
    }
    try {
      // Names come from source URLs: cleaned like an upload's (no path parts or control characters).
      const name = originalFilename.safeParse(file.filename);
      const view = await storeUpload(ctx, { data: file.data, filename: name.success ? name.data : 'file', altText: alt?.success ? alt.data : null });
      result.byUrl[file.url] = { id: view.id, fileUrl: view.url, mimeType: view.mimeType };
      result.imported += 1;
    } catch (e) {
      if (!isCmsError(e) || !skippableUpload.has(e.code)) throw e;
      result.skipped.push({ url: file.url, reason: e.message });
    }
  }
  return result;
}

/** Problems of one entry that are found before anything of it is written: the entry is skipped. */
const skippableEntry = new Set(['VALIDATION_FAILED', 'REQUIRED_FIELDS_MISSING', 'PAYLOAD_TOO_LARGE', 'NOT_FOUND']);

/** Creates fresh entries (pages and items are never updated in place), with unique slugs. */
async function createEntries(ctx: Ctx, write: EntriesWrite): Promise<EntriesWriteResult> {
  const store = storeOf(write.entryKind);
  const result: EntriesWriteResult = { entryKind: write.entryKind, ids: {}, created: 0, renamed: [], skipped: [], dropped: [] };
  const typeIds = new Map<string, string>();
  for (const entry of write.entries) {
    const fields = resolvePlaceholders(entry.fields, (key) => write.refIds?.[key] ?? result.ids[key], (target) => result.dropped.push({ key: entry.key, target }));
    try {
      let typeId = typeIds.get(entry.typeSlug);
      if (!typeId) {
        const type = await store.findType(ctx.db, ctx.project.id, entry.typeSlug);
        if (!type) throw new CmsError('NOT_FOUND', `${write.entryKind === 'page' ? 'Page type' : 'Collection type'} "${entry.typeSlug}" not found`);
        typeId = type.id;
        typeIds.set(entry.typeSlug, typeId);
      }
      if (!slugPattern.test(entry.slug)) throw new CmsError('VALIDATION_FAILED', `slug "${entry.slug}" is not a valid slug`);
      const slug = await findFreeSlug(entry.slug, (candidate) => store.slugTaken(ctx.db, ctx.project.id, typeId, candidate));
      const shape = await createEntry(ctx, write.entryKind, {
        typeSlug: entry.typeSlug, name: entry.name, slug, fields, seo: entry.seo, status: entry.status,
      });
      const now = ctx.clock.now();
      const publishAt = entry.publishAt ? Date.parse(entry.publishAt) : Number.NaN;
      // The source's publish time, schedule and own times, in one write (nothing below changes them).
      const kept = {
        ...(entry.status === 'published' && entry.publishedAt ? { publishedAt: new Date(entry.publishedAt) } : {}),
        ...(entry.status === 'draft' && publishAt > now.getTime() ? { publishAt: new Date(publishAt) } : {}),
        ...sourceTimesAt(entry.sourceTimes, now),
      };
      if (Object.keys(kept).length) await store.update(ctx.db, shape.id, kept);
      if (entry.locales || entry.seoLocales) {
        const missing = (target: string) => result.dropped.push({ key: entry.key, target });
        const locales = entry.locales ? resolveLocalePlaceholders(entry.locales, (key) => write.refIds?.[key] ?? result.ids[key], missing) : undefined;
        const leftOut = await writeEntryLocales(ctx, write.entryKind, shape.id, { locales, seoLocales: entry.seoLocales }, entry.status === 'published');
        if (leftOut.length) (result.localesLeftOut ??= []).push(...leftOut.map((reason) => ({ key: entry.key, reason })));
      }
      result.ids[entry.key] = shape.id;
      result.created += 1;
      if (slug !== entry.slug) result.renamed.push({ key: entry.key, from: entry.slug, to: slug });
    } catch (e) {
      if (!isCmsError(e) || !skippableEntry.has(e.code)) throw e;
      result.skipped.push({ key: entry.key, code: e.code, reason: e.message, details: e.details });
    }
  }
  return result;
}

/** The source's times that can be kept: valid and not still to come; `updatedAt` not before `createdAt`. */
function sourceTimesAt(times: SourceTimes | undefined, now: Date): { createdAt?: Date; updatedAt?: Date } {
  const at = (v: string | undefined) => {
    const t = v === undefined ? Number.NaN : Date.parse(v);
    return Number.isNaN(t) || t > now.getTime() ? undefined : new Date(t);
  };
  const createdAt = at(times?.createdAt);
  let updatedAt = at(times?.updatedAt);
  if (createdAt && updatedAt && updatedAt < createdAt) updatedAt = createdAt;
  return { ...(createdAt ? { createdAt } : {}), ...(updatedAt ? { updatedAt } : {}) };
}

const placeholderPrefix = '@ref:';

/** `{ _ref: "@ref:<key>", _type }` pointed at the entry of that key; dropped when there is none. */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function resolvePlaceholders(value: Record<string, unknown>, idOf: (key: string) => string | undefined, dropped: (key: string) => void): Record<string, unknown> {
  const walk = (v: unknown): unknown => {
    if (isRecord(v) && typeof v._ref === 'string' && v._ref.startsWith(placeholderPrefix)) {
      const key = v._ref.slice(placeholderPrefix.length);
      const id = idOf(key);
      if (id) return { ...v, _ref: id };
      dropped(key);
      return undefined;
    }
    if (Array.isArray(v)) return v.map(walk).filter((x) => x !== undefined);
    if (isRecord(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const r = walk(x);
        if (r !== undefined) out[k] = r;
      }
      return out;
    }
    return v;
  };
  const out = walk(value);
  return isRecord(out) ? out : {};
}

/** Each locale's values with their placeholders pointed at local ids, as `resolvePlaceholders` does. */
function resolveLocalePlaceholders(
  values: Record<string, Record<string, unknown>>, idOf: (key: string) => string | undefined, dropped: (key: string) => void,
): Record<string, Record<string, unknown>> {
  return Object.fromEntries(Object.entries(values).map(([code, v]) => [code, resolvePlaceholders(v, idOf, dropped)]));
}

/** The second pass: references (now that every target exists), then publish as the source had it. */
async function finishEntries(ctx: Ctx, write: FinishWrite): Promise<FinishWriteResult> {
  const store = storeOf(write.entryKind);
  const result: FinishWriteResult = { done: 0, skipped: [] };
  for (const entry of write.entries) {
    try {
      if (Object.keys(entry.fields).length > 0) await updateEntry(ctx, write.entryKind, { ref: { id: entry.id }, fields: entry.fields });
      if (entry.publish) await publishEntry(ctx, write.entryKind, { id: entry.id });
      if (entry.locales || entry.seoLocales) {
        const leftOut = await writeEntryLocales(ctx, write.entryKind, entry.id, { locales: entry.locales, seoLocales: entry.seoLocales }, entry.publish);
        if (leftOut.length) (result.localesLeftOut ??= []).push(...leftOut.map((reason) => ({ id: entry.id, reason })));
      }
      // The source's publish time and own times, over the ones the writes above set, in one write.
      const kept = {
        ...(entry.publish && entry.publishedAt ? { publishedAt: new Date(entry.publishedAt) } : {}),
        ...sourceTimesAt(entry.sourceTimes, ctx.clock.now()),
      };
      if (Object.keys(kept).length) await store.update(ctx.db, entry.id, kept);
      result.done += 1;
    } catch (e) {
      if (!isCmsError(e) || !skippableEntry.has(e.code)) throw e;
      result.skipped.push({ id: entry.id, code: e.code, reason: e.message, details: e.details });
    }
  }
  return result;
}

// ------------------------------------------------------------------------------------------------
// The blog, through the blog operations (nested, so they join this batch's transaction).

async function importBlogTerms(ctx: Ctx, write: BlogTermsWrite): Promise<BlogTermsWriteResult> {
  const result: BlogTermsWriteResult = { categories: {}, tags: {}, created: { categories: 0, tags: 0 }, matched: { categories: 0, tags: 0 } };
  const kinds = [
    { kind: 'categories', list: write.categories, table: blogCategories, op: categoryOperations.create, out: result.categories },
    { kind: 'tags', list: write.tags, table: blogTags, op: tagOperations.create, out: result.tags },
  ] as const;
  for (const { kind, list, table, op, out } of kinds) {
    for (const term of list) {
      if (out[term.slug]) continue;
      // Matched by slug, also across imports: a second import reuses the terms of the first.
      const [existing] = await ctx.db.select({ id: table.id }).from(table)
        .where(and(eq(table.projectId, ctx.project.id), eq(table.slug, term.slug)));
      if (existing) {
        out[term.slug] = existing.id;
        result.matched[kind] += 1;
        continue;
      }
      const created = await op.run(ctx, parseInput(op, { name: term.name, slug: term.slug }));
      out[term.slug] = created.id;
      result.created[kind] += 1;
    }
  }
  return result;
}

const lower = (s: string) => s.trim().toLowerCase();

/** Authors are matched against the project's, by email, then slug, then name, so imports never duplicate one. */
async function importBlogAuthors(ctx: Ctx, write: BlogAuthorsWrite): Promise<BlogAuthorsWriteResult> {
  const result: BlogAuthorsWriteResult = { ids: {}, created: 0, matched: [], skipped: [] };
  const create = authorOperations['blog.authors.create'];
  for (const author of write.authors) {
    const existing = await ctx.db.select({ id: blogAuthors.id, email: blogAuthors.email, slug: blogAuthors.slug, firstName: blogAuthors.firstName, lastName: blogAuthors.lastName })
      .from(blogAuthors).where(eq(blogAuthors.projectId, ctx.project.id)).orderBy(asc(blogAuthors.createdAt), asc(blogAuthors.id));
    const name = lower(`${author.firstName} ${author.lastName}`);
    const byEmail = author.email ? existing.find((a) => a.email && lower(a.email) === lower(author.email!)) : undefined;
    const bySlug = byEmail ? undefined : existing.find((a) => a.slug === author.slug);
    const byName = byEmail || bySlug || name === '' ? undefined : existing.find((a) => lower(`${a.firstName} ${a.lastName}`) === name);
    const match = byEmail ? { by: 'email' as const, row: byEmail } : bySlug ? { by: 'slug' as const, row: bySlug } : byName ? { by: 'name' as const, row: byName } : null;
    if (match) {
      result.ids[author.key] = match.row.id;
      result.matched.push({ key: author.key, by: match.by, id: match.row.id });
      continue;
    }
    try {
      const created = await create.run(ctx, parseInput(create, {
        slug: author.slug, firstName: author.firstName, lastName: author.lastName, email: author.email, bio: author.bio,
        title: author.title, profileImageId: author.profileImageId, links: author.links,
      }));
      result.ids[author.key] = created.id;
      result.created += 1;
    } catch (e) {
      if (!isCmsError(e) || !skippableEntry.has(e.code)) throw e;
      result.skipped.push({ key: author.key, code: e.code, reason: e.message, details: e.details });
    }
  }
  return result;
}

/** A post slug is taken by a post of the project that is not deleted. */
const blogSlugTaken = (ctx: Ctx) => async (slug: string) => (await ctx.db.select({ id: blogPosts.id }).from(blogPosts)
  .where(and(eq(blogPosts.projectId, ctx.project.id), eq(blogPosts.slug, slug), isNull(blogPosts.deletedAt)))).length > 0;

/** Posts are created fresh on every import, like pages and items; a taken slug gets a suffix. */
async function importBlogPosts(ctx: Ctx, write: BlogPostsWrite): Promise<BlogPostsWriteResult> {
  const result: BlogPostsWriteResult = { ids: {}, created: 0, renamed: [], skipped: [] };
  for (const post of write.posts) {
    try {
      const slug = await findFreeSlug(post.slug, blogSlugTaken(ctx));
      const input = parseInput(createPost, {
        title: post.title, slug, body: post.body, summary: post.summary, status: post.status, publishedAt: post.publishedAt,
        featuredImageId: post.featuredImageId, author: post.authorId, categories: post.categoryIds, tags: post.tagIds, seo: post.seo,
      });
      const created = await createPost.run(ctx, input);
      const times = sourceTimesAt(post.sourceTimes, ctx.clock.now());
      if (Object.keys(times).length) await ctx.db.update(blogPosts).set(times).where(eq(blogPosts.id, created.id));
      result.ids[post.key] = created.id;
      result.created += 1;
      if (slug !== post.slug) result.renamed.push({ key: post.key, from: post.slug, to: slug });
    } catch (e) {
      if (!isCmsError(e) || !skippableEntry.has(e.code)) throw e;
      result.skipped.push({ key: post.key, code: e.code, reason: e.message, details: e.details });
    }
  }
  return result;
}

// ------------------------------------------------------------------------------------------------
// Planner statistics.

/** Every table an import writes to. */
const importedTables = [
  components, collectionTypes, pageTypes, media, collectionItems, itemVersions, pages, pageVersions,
  blogCategories, blogTags, blogAuthors, blogPosts, blogPostCategories, blogPostTags, webhookDeliveries, migrations, migrationLogs,
];

/**
 * ANALYZE on the tables an import wrote: PGlite has no autovacuum, so without it the planner
 * keeps the statistics of the empty tables it started with (and PostgreSQL's autovacuum comes to
 * them only some time later). Outside any transaction, after the last batch.
 */
export async function analyzeImportedTables(db: Db): Promise<void> {
  await db.execute(sql`analyze ${sql.join(importedTables.map((t) => sql`${t}`), sql`, `)}`);
}
