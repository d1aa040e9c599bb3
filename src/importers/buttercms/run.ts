// One ButterCMS migration, from start to its last state (docs/migrating-from-buttercms.md):
// mapping (read and discover the source), validating (infer and check the schema; a dry run
// ends here with its report), importing (media in batches of 50, then the schema, knowing which
// fields hold files other than images; collection items and pages in two passes, the blog),
// completed. Source requests never happen inside a transaction:
// each batch is fetched first, then written by one step operation, which also records progress,
// stats and log lines, and applies a pause request once the batch is in.

import type { Dispatcher } from 'undici';
import type { Actor } from '../../core/actor.js';
import { isCmsError } from '../../core/errors.js';
import {
  analyzeImportedTables, butterConfigSchema, migrationAbandon, migrationLocalesProbe, runnerStoppedMessageFor,
  type ButterConfig, type FinishEntry, type MigrationLogLine, type MigrationRunRef, type MigrationView, type SchemaWrite, type SchemaWriteResult, type StoredMediaRef,
} from '../../core/migrations/index.js';
import { checkSchemaSet, validateTypeDefinition, type SchemaSet } from '../../core/schema/index.js';
import type { Cms } from '../../runtime.js';
import { importBlog, blogMediaUrls } from './blog.js';
import { createButterClient, normaliseApiUrl, SourceRequestError, type ButterClient } from './client.js';
import { collectMediaUrls } from './convert.js';
import { containsRef, orderForCreation, preparePages, prepareItems, refTargets, resolveRefs, stripRefs, type PrepareContext, type PreparedEntry } from './entries.js';
import { isMediaUrl, isOnMediaHost, isPlainObject } from './infer.js';
import { asLocaleFailure, decideLocales, describeLocalized, localeLookup, LocaleRefused, markLocalized, readOtherLocales, type LocaleDecision, type LocaleLookup } from './locales.js';
import { mergeWithExisting, planImport, type ExistingSchema, type ImportPlan, type MergeResult, type PlannedType, type SchemaKind } from './plan.js';
import { liftMediaAltTexts, readBlog, readSource, type ReadProgress, type SourceData, type SourcePost } from './source.js';
import { createMigrationSteps, Paused, type MigrationSteps } from './steps.js';
import { fieldListOf, type ImportWarning, type SchemaField } from './types.js';
import { cutText } from '../../lib/cut-text.js';

export const mediaBatchSize = 50;
/**
 * Pages and items per transaction. An embedded database (PGlite) runs on this thread and holds
 * everyone else off while a batch writes, so batches stay short enough for the server to answer
 * in between.
 */
export const entryBatchSize = 25;

export interface RunMigrationDeps {
  cms: Cms;
  ref: MigrationRunRef;
  runnerId: string;
  /** Aborted when the process stops (or the migration is no longer this runner's). */
  signal: AbortSignal;
  /** Least time between source requests (default 100 ms; tests lower it). */
  minIntervalMs?: number | undefined;
  dispatcher?: Dispatcher | undefined;
  /** Bytes of blog files held in memory when downloaded ahead (default `blogAheadMaxBytes`). */
  blogAheadMaxBytes?: number | undefined;
}

/** A failure the run reports as it is: the message is the migration's error. */
class ImportFailure extends Error {
  constructor(message: string, readonly data?: Record<string, unknown>) {
    super(message);
  }
}

type Stats = Record<string, number>;

function toLogLines(warnings: readonly ImportWarning[]): MigrationLogLine[] {
  return warnings.map((w) => ({ level: w.level, message: w.message }));
}

export async function runButterMigration(deps: RunMigrationDeps): Promise<void> {
  const { cms, ref, runnerId, signal } = deps;
  const actor: Actor = { kind: 'system', job: 'migration' };
  const options = { actor, project: ref.projectSlug };
  // What the runner counts itself; what batches wrote is counted by the step, with the batch.
  const stats: Stats = { sourceRequests: 0, sourceWaitMs: 0, warnings: 0 };
  let stored: Stats = {};
  let phase = 'mapping';
  let mode = 'full';
  /** A run that ends without an error: counted (GET /metrics) and logged. */
  const ended = (outcome: 'completed' | 'paused') => {
    cms.metrics?.migrationRuns.inc({ outcome });
    cms.log.info(`migration ${ref.id} ${outcome}`, { project: ref.projectSlug, mode });
  };

  const steps = createMigrationSteps({
    cms, migrationId: ref.id, runnerId, projectSlug: ref.projectSlug, signal, stats, onStored: (s) => { stored = s; },
  });

  // Source requests stop when the process stops, and when this run ends (a pause, a failure): the
  // blog, read while the entries are written, is not read on after that.
  const runEnded = new AbortController();
  const requests = AbortSignal.any([signal, runEnded.signal]);

  try {
    const migration = await cms.run('migrations.get', { id: ref.id }, options);
    const parsed = butterConfigSchema.safeParse(migration.config);
    if (!parsed.success) throw new ImportFailure(`The stored config is invalid: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    const config = parsed.data;
    mode = migration.mode;
    const apiUrl = normaliseApiUrl(config.apiUrl);
    const client = createButterClient({
      apiKey: config.apiKey,
      apiUrl,
      minIntervalMs: deps.minIntervalMs,
      signal: requests,
      dispatcher: deps.dispatcher,
      onRequest: () => {
        stats.sourceRequests = (stats.sourceRequests ?? 0) + 1;
        stats.sourceWaitMs = Math.round(client.waitedMs);
      },
    });
    const mediaHosts = mediaHostsOf(config, apiUrl);

    // ---- mapping: read the account, following what content points at; with `locales`, in the
    // first listed locale, then the same pages and items in each other one (all before any write).
    const listed = config.locales;
    const mappingProgress = async (p: ReadProgress) => { await steps.record({ progress: { phase: 'mapping', done: p.done, total: p.total } }); };
    const source = await readSource(client, {
      pageTypes: config.pageTypes,
      collections: config.collections,
      // An import reads the blog when it gets to it; a dry run reads it now, for its counts.
      blog: mode === 'dry_run',
      locale: listed?.[0],
      onProgress: mappingProgress,
    }).catch((e: unknown) => { throw listed ? asLocaleFailure(e, listed[0]!) : e; });
    if (listed) {
      const read = await readOtherLocales(client, source, listed.slice(1), async (p) => {
        await steps.record({ progress: { phase: 'mappingLocales', done: p.done, total: p.total } });
      });
      source.variants = read.variants;
      source.warnings.push(...read.warnings);
    }
    // Media fields arrive as `{ url, alt }`: back to URLs (before locales are compared), alt texts aside.
    const fieldAlts = liftMediaAltTexts(source, mediaHosts);
    const lookup: LocaleLookup | null = listed && source.variants ? localeLookup(listed, source.variants) : null;
    const summary = summariseSource(source);
    await steps.record({
      status: 'validating',
      progress: { phase: 'validating', done: 0, total: 1 },
      logs: [
        ...toLogLines(source.warnings),
        { level: 'info', message: `Read the source: ${describeCounts(summary)}`, data: { ...summary } },
        { level: mode === 'dry_run' ? 'warning' : 'info', message: discoveryNote(source) },
      ],
    });
    phase = 'validating';

    // ---- validating: infer the schema, meet the project's, check everything before any write.
    const plan = planImport(source, { mediaHosts });
    const decision: LocaleDecision | null = listed ? decideLocales(listed, await cms.run(migrationLocalesProbe, {}, options)) : null;
    const localizedNow = (p: ImportPlan) => (listed && lookup ? markLocalized(p, source, lookup, listed) : null);
    const localized = localizedNow(plan);
    const pulled = await cms.run('schema.pull', {}, options);
    const existing = toExistingSchema(pulled);
    const merge = mergeWithExisting(existing, plan);
    const issues = checkMerged(pulled, merge);
    const mediaUrls = collectAllMediaUrls(source, mediaHosts);
    const conversionWarnings: ImportWarning[] = [];
    // A dry run converts too (with stand-in ids), so its report shows what would be dropped.
    if (mode === 'dry_run') {
      const ctx: PrepareContext = {
        plan, mediaIdForUrl: () => 'dry-run', fileUrlFor: () => null, willExist: knownEntities(source), locales: prepareLocales(decision, lookup),
      };
      for (const [key, items] of source.collections) prepareItems(key, items, ctx, conversionWarnings, source.itemDrafts);
      preparePages(source.pages, ctx, conversionWarnings);
    }
    const problems = [...merge.conflicts, ...issues];
    const report = buildReport(source, plan, merge, mediaUrls, [...source.warnings, ...plan.warnings, ...conversionWarnings], problems, apiUrl);
    if (decision && localized) report.locales = localesReport(decision, localized);
    const planLogs: MigrationLogLine[] = [
      ...toLogLines(plan.warnings),
      ...toLogLines(conversionWarnings),
      ...problems.map((p): MigrationLogLine => ({ level: mode === 'dry_run' ? 'warning' : 'error', message: p })),
      ...merge.adapted.map((a): MigrationLogLine => ({ level: 'warning', message: a })),
      { level: 'info', message: `Schema: ${plan.components.length} components, ${plan.pageTypes.length} page types, ${plan.collections.length} collections; ${mediaUrls.length} media URLs` },
      ...(decision && localized ? localePlanLogs(decision, localized) : []),
    ];
    if (mode === 'dry_run') {
      await steps.record({ status: 'completed', progress: { phase: 'done', done: 1, total: 1 }, report, logs: [...planLogs, { level: 'info', message: 'Dry run complete: nothing was written' }] });
      ended('completed');
      return;
    }
    if (problems.length) {
      await steps.record({ report, logs: planLogs });
      throw new ImportFailure(`The imported schema does not fit the project's (${problems.length} problem${problems.length === 1 ? '' : 's'}; see the log); nothing was written`);
    }

    const schemaWrite = (m: MergeResult): SchemaWrite => ({
      ...m.write,
      ...(decision ? { locales: { add: decision.add, ...(decision.setDefault ? { defaultLocale: decision.setDefault } : {}) } } : {}),
    });
    phase = 'importing';
    if (mode === 'schema_only') {
      // No files are read: a media URL's field is an image field, whatever its file.
      const written = await steps.schema(schemaWrite(merge), { status: 'importing', report, progress: { phase: 'schema', done: 0, total: 1 }, logs: planLogs });
      await steps.record({ progress: { phase: 'schema', done: 1, total: 1 }, logs: [...schemaLogs(merge), ...localeWriteLogs(written)] });
      await steps.record({ status: 'completed', progress: { phase: 'done', done: 1, total: 1 }, logs: [{ level: 'info', message: 'Schema imported (schema only)' }] });
      ended('completed');
      return;
    }

    // ---- importing: media first, 50 files per batch (downloaded, then stored in one transaction).
    await steps.record({ status: 'importing', report, progress: { phase: 'media', done: 0, total: mediaUrls.length }, logs: planLogs });
    // Media URLs the source could not give (not found, too large): not asked for again by the blog phase.
    const unavailable = new Set<string>();
    const media = await importMedia(client, mediaUrls, altTextsOf(source.posts, fieldAlts), cms.config.maxUploadBytes, steps, unavailable, mediaHosts);
    // Fields the project has localized already (an earlier import, a schema push) are per locale here too.
    adoptLocalized(plan, merge);
    const written = await steps.schema(schemaWrite(merge), { progress: { phase: 'schema', done: 0, total: 1 } });
    await steps.record({ progress: { phase: 'schema', done: 1, total: 1 }, logs: [...schemaLogs(merge), ...localeWriteLogs(written)] });

    // ---- collection items, then pages: each created whole once its targets exist; entries in a
    // reference cycle are completed (references, publish) by a second pass.
    const ids = new Map<string, string>();
    const willExist = knownEntities(source);
    const prepare: PrepareContext = {
      plan,
      mediaIdForUrl: (url) => media.get(url)?.id,
      fileUrlFor: (url) => media.get(url)?.fileUrl,
      willExist,
      locales: prepareLocales(decision, lookup),
    };
    // The blog is read (and its new files downloaded) while the entries are written: the source's
    // spacing between requests then costs no time of its own. What it read is recorded after the
    // entries, in the order an import that read it then would record it.
    if (decision) {
      await steps.record({ logs: [{ level: 'info', message: 'The blog is read once, without a locale (ButterCMS\'s posts take no locale parameter): posts are stored in the default locale' }] });
    }
    const blogAhead = source.blogRead ? null : readBlogAhead(client, source, media, unavailable, mediaHosts, cms.config.maxUploadBytes, deps.blogAheadMaxBytes ?? blogAheadMaxBytes);
    // Awaited below; a failure meanwhile is reported there, not as an unhandled rejection.
    blogAhead?.catch(() => {});
    const itemWarnings: ImportWarning[] = [];
    const items = await createAll('item', [...source.collections].flatMap(([key, list]) => prepareItems(key, list, prepare, itemWarnings, source.itemDrafts)),
      itemWarnings, ids, steps);
    const pageWarnings: ImportWarning[] = [];
    const pages = await createAll('page', preparePages(source.pages, prepare, pageWarnings), pageWarnings, ids, steps);
    await finishAll('item', items, ids, steps);
    await finishAll('page', pages, ids, steps);
    // Published entries whose source has a newer draft: that draft, over what is published.
    await saveDrafts('item', items, ids, steps);
    await saveDrafts('page', pages, ids, steps);

    // ---- the blog: read now, its files, then categories, tags, authors (matched against what
    // exists) and posts (always fresh).
    let blogFiles: BlogAhead['files'] | null = null;
    if (blogAhead) {
      const ahead = await blogAhead;
      const { blog } = ahead;
      if (ahead.progress) await steps.record({ progress: { phase: 'blogRead', done: ahead.progress.done, total: ahead.progress.total } });
      Object.assign(source, { posts: blog.posts, authors: blog.authors, categories: blog.categories, tags: blog.tags, blogRead: true });
      await steps.record({
        logs: [...toLogLines(blog.warnings), { level: 'info', message: `Read the blog: ${blog.posts.length} posts, ${blog.authors.length} authors, ${blog.categories.length} categories, ${blog.tags.length} tags` }],
      });
      blogFiles = ahead.files;
    }
    const blogUrls = blogMediaUrls(source, mediaHosts).filter((u) => isMediaUrl(u, mediaHosts) && !media.has(u) && !unavailable.has(u));
    // Featured images imported already (a page used them too) get their post's alt text now,
    // unless the source's media library gave them one.
    const altTexts = source.posts.flatMap((p) => {
      const stored = p.featured_image && p.featured_image_alt && !fieldAlts.has(p.featured_image) ? media.get(p.featured_image) : undefined;
      return stored && p.featured_image_alt ? [{ id: stored.id, altText: p.featured_image_alt }] : [];
    });
    if (altTexts.length) await steps.media({ files: [], altTexts });
    if (blogUrls.length) {
      const downloaded = blogFiles ?? downloadMedia(client, blogUrls, altTextsOf(source.posts), cms.config.maxUploadBytes, unavailable, mediaHosts);
      for (const [url, file] of await storeMedia(downloaded, blogUrls.length, steps, 'blogMedia')) media.set(url, file);
    }
    await importBlog({ source, media, steps });
    // Fresh planner statistics for what the import wrote: PGlite has no autovacuum, and
    // PostgreSQL's would come to it only later. Worth a warning if it fails, never the import.
    await analyzeImportedTables(cms.db).catch((e: unknown) => cms.log.warn(`migration ${ref.id}: ANALYZE after the import failed`, { error: String(e) }));

    await steps.record({ status: 'completed', progress: { phase: 'done', done: 1, total: 1 }, logs: [{ level: 'info', message: `Completed: ${describeStats({ ...stored, ...stats })}` }] });
    ended('completed');
  } catch (e) {
    if (e instanceof Paused) {
      ended('paused');
      return;
    }
    if (isCmsError(e) && e.code === 'MIGRATION_STATE') {
      // Settled as failed elsewhere (runner taken for dead), or deleted: nothing more to write.
      cms.log.warn(`migration ${ref.id}: no longer run by this process`, { error: e.message });
      return;
    }
    const { message, data } = describeFailure(e, signal, phase, mode);
    cms.metrics?.migrationRuns.inc({ outcome: 'failed' });
    cms.log.warn(`migration ${ref.id} failed`, { project: ref.projectSlug, mode, phase });
    if (!(e instanceof ImportFailure) && !(e instanceof SourceRequestError) && !isCmsError(e)) {
      cms.log.error(`migration ${ref.id} failed`, { error: e instanceof Error ? e.stack ?? e.message : String(e) });
    }
    try {
      await cms.run(migrationAbandon, {
        id: ref.id, runnerId, error: message, logs: [{ level: 'error', message, ...(data ? { data } : {}) }], stats: { ...stats },
      }, options);
    } catch (recordError) {
      cms.log.error(`migration ${ref.id}: could not record its failure`, { error: String(recordError), failure: message });
    }
  } finally {
    runEnded.abort();
  }
}

/** The blog, and the files it uses that the import has not stored yet: downloaded, or to download. */
interface BlogAhead {
  blog: Awaited<ReturnType<typeof readBlog>>;
  /** The last progress of the read, recorded once the entries are in. */
  progress: ReadProgress | null;
  /** Every batch of the blog's files: the ones downloaded ahead first, then the rest, fetched when asked for. */
  files: Iterable<Promise<DownloadedBatch> | DownloadedBatch>;
}

/** Files downloaded ahead are held in memory until the entries are in: at most this many bytes of them. */
const blogAheadMaxBytes = 64 * 1024 * 1024;

async function readBlogAhead(
  client: ButterClient, source: SourceData, media: ReadonlyMap<string, StoredMediaRef>, unavailable: Set<string>, mediaHosts: readonly string[],
  maxBytes: number, aheadMaxBytes: number,
): Promise<BlogAhead> {
  let progress: ReadProgress | null = null;
  const blog = await readBlog(client, async (p) => { progress = p; });
  const read = { posts: blog.posts, authors: blog.authors };
  const urls = blogMediaUrls(read, mediaHosts).filter((u) => isMediaUrl(u, mediaHosts) && !media.has(u) && !unavailable.has(u));
  const batches = downloadMedia(client, urls, altTextsOf(read.posts), maxBytes, unavailable, mediaHosts);
  const ahead: DownloadedBatch[] = [];
  let held = 0;
  while (held < aheadMaxBytes) {
    const next = batches.next();
    if (next.done) break;
    const batch = await next.value;
    ahead.push(batch);
    for (const f of batch.files) held += f.data.byteLength;
  }
  return { blog, progress, files: (function* () { yield* ahead; yield* batches; })() };
}

function describeFailure(e: unknown, signal: AbortSignal, phase: string, mode: string): { message: string; data?: Record<string, unknown> } {
  if (signal.aborted) return { message: runnerStoppedMessageFor(mode), data: { phase } };
  // A dry run writes nothing, so nothing of it stays.
  const after = mode === 'dry_run' ? 'Nothing was written (dry run).' : 'What was imported stays.';
  if (e instanceof LocaleRefused) {
    return { message: `${e.message}.`, data: { phase, request: e.failure.request, status: e.failure.status, failure: 'locale', locale: e.locale } };
  }
  if (e instanceof SourceRequestError) {
    return { message: `${e.message}. ${after}`, data: { phase, request: e.request, status: e.status, failure: e.failure } };
  }
  if (e instanceof ImportFailure) return { message: e.message, ...(e.data ? { data: e.data } : {}) };
  if (isCmsError(e)) {
    return { message: `${phase} failed: ${e.code}: ${e.message}. ${after}`, data: { phase, code: e.code, details: e.details } };
  }
  return { message: `${phase} failed: ${e instanceof Error ? e.message : String(e)}. ${after}`, data: { phase } };
}

function mediaHostsOf(config: ButterConfig, apiUrl: string): string[] {
  const hosts = [...(config.mediaHosts ?? [])];
  // A custom endpoint (a proxy, or a test double) usually serves the files as well.
  if (config.apiUrl) hosts.push(new URL(apiUrl).host);
  return hosts;
}

/** Keys of every entity the import creates: references to anything else are dropped. */
function knownEntities(source: SourceData): (key: string) => boolean {
  const keys = new Set<string>();
  for (const page of source.pages) keys.add(`page:${page.slug}`);
  for (const items of source.collections.values()) for (const item of items) keys.add(`item:${String(item.meta.id)}`);
  return (key) => keys.has(key);
}

function collectAllMediaUrls(source: SourceData, hosts: readonly string[]): string[] {
  const urls = new Set<string>();
  for (const page of source.pages) for (const u of collectMediaUrls([page.fields, page.draftFields ?? {}], hosts)) urls.add(u);
  for (const items of source.collections.values()) for (const u of collectMediaUrls(items, hosts)) urls.add(u);
  for (const u of collectMediaUrls([...source.itemDrafts.edits.values()], hosts)) urls.add(u);
  for (const v of source.variants ?? []) {
    for (const page of v.pages) for (const u of collectMediaUrls(page.fields, hosts)) urls.add(u);
    for (const items of v.collections.values()) for (const u of collectMediaUrls(items, hosts)) urls.add(u);
  }
  for (const u of blogMediaUrls(source, hosts)) urls.add(u);
  return [...urls].filter((u) => isMediaUrl(u, hosts));
}

/** The project's schema in the importer's terms (field options as plain records). */
function toExistingSchema(set: SchemaSet): ExistingSchema {
  const convert = (types: SchemaSet[SchemaKind]) => types.map((t) => ({
    slug: t.slug,
    name: t.name,
    fields: t.fields.map((f): SchemaField => {
      const { options, ...rest } = f;
      return options ? { ...rest, options: { ...options } } : rest;
    }),
  }));
  return { components: convert(set.components), pageTypes: convert(set.pageTypes), collections: convert(set.collections) };
}

function checkMerged(existing: SchemaSet, merge: MergeResult): string[] {
  const problems: string[] = [];
  const next: SchemaSet = {
    components: [...existing.components],
    pageTypes: [...existing.pageTypes],
    collections: [...existing.collections],
  };
  const given = new Set<string>();
  for (const kind of ['components', 'pageTypes', 'collections'] as const) {
    for (const def of merge.write[kind]) {
      const checked = validateTypeDefinition(def);
      if (!checked.ok) {
        for (const i of checked.issues) problems.push(`${kind}/${def.slug}: ${i.path}: ${i.message}`);
        continue;
      }
      next[kind] = [...next[kind].filter((d) => d.slug !== def.slug), checked.value];
      given.add(`${kind}/${def.slug}`);
    }
  }
  for (const i of checkSchemaSet(next)) if (given.has(`${i.kind}/${i.slug}`)) problems.push(`${i.kind}/${i.slug}: ${i.path}: ${i.message}`);
  return problems;
}

function schemaLogs(merge: MergeResult): MigrationLogLine[] {
  const lines: MigrationLogLine[] = [];
  const name = (kind: SchemaKind) => (kind === 'pageTypes' ? 'page type' : kind === 'collections' ? 'collection' : 'component');
  for (const c of merge.created) lines.push({ level: 'info', message: `Created ${name(c.kind)} ${c.slug}` });
  for (const c of merge.extended) lines.push({ level: 'info', message: `Added fields ${c.fields.join(', ') || '(options)'} to the existing ${name(c.kind)} ${c.slug}` });
  for (const c of merge.reused) lines.push({ level: 'info', message: `Reused the existing ${name(c.kind)} ${c.slug} as it is` });
  return lines;
}

/** Files by source URL, downloaded (the run's first media phase) and stored, batch by batch. */
function importMedia(
  client: ButterClient, urls: string[], alt: ReadonlyMap<string, string>, maxBytes: number, steps: MigrationSteps, unavailable: Set<string>,
  mediaHosts: readonly string[],
): Promise<Map<string, StoredMediaRef>> {
  return storeMedia(downloadMedia(client, urls, alt, maxBytes, unavailable, mediaHosts), urls.length, steps, 'media');
}

/**
 * Alt texts by file URL: the ones media fields brought (the source's media library), then for the
 * others, the alt text of a post whose featured image the file is.
 */
function altTextsOf(posts: readonly SourcePost[], fieldAlts: ReadonlyMap<string, string> = new Map()): Map<string, string> {
  const alt = new Map(fieldAlts);
  for (const post of posts) {
    if (post.featured_image && post.featured_image_alt && !alt.has(post.featured_image)) alt.set(post.featured_image, post.featured_image_alt);
  }
  return alt;
}

/** One batch of files as downloaded: the files, and the ones the source could not give. */
interface DownloadedBatch {
  files: Array<{ url: string; data: Uint8Array<ArrayBuffer>; filename: string; altText?: string }>;
  logs: MigrationLogLine[];
  skipped: number;
}

/**
 * Downloads in batches of `mediaBatchSize`, lazily: each batch is fetched when the caller asks for
 * it. Each file gets its alt text from `alt`, where it has one. A URL the source could not give is added to
 * `unavailable`, so that no later phase asks for it again (migrations never retry). A file that
 * cannot be fetched (not found, too large, an error answer, a host that cannot be reached: the
 * ButterCMS CDN from a machine without the internet, a link to another site in rich text) is
 * skipped with a warning naming it, and the fields using it are left empty: one missing file does
 * not cost the whole import. Only a stop (pause, shutdown) ends the phase.
 */
function* downloadMedia(
  client: ButterClient, urls: string[], alt: ReadonlyMap<string, string>, maxBytes: number, unavailable: Set<string>,
  mediaHosts: readonly string[],
): Generator<Promise<DownloadedBatch>> {
  for (let start = 0; start < urls.length; start += mediaBatchSize) {
    yield (async () => {
      const batch: DownloadedBatch = { files: [], logs: [], skipped: 0 };
      for (const url of urls.slice(start, start + mediaBatchSize)) {
        try {
          const file = await client.download(url, maxBytes);
          batch.files.push({ url, data: file.bytes, filename: filenameOf(url), ...(alt.has(url) ? { altText: alt.get(url)! } : {}) });
        } catch (e) {
          if (!(e instanceof SourceRequestError) || e.failure === 'aborted') throw e;
          const elsewhere = !isOnMediaHost(url, mediaHosts);
          batch.skipped += 1;
          unavailable.add(url);
          const where = elsewhere ? ' (a file on another site, not on a media host of the source)' : '';
          batch.logs.push({ level: 'warning', message: `Media ${url} skipped: ${e.message}${where}; fields using it are left empty`, data: { request: e.request } });
        }
      }
      return batch;
    })();
  }
}

/** Stores downloaded batches, one transaction each, with the phase's progress. */
async function storeMedia(
  batches: Iterable<Promise<DownloadedBatch> | DownloadedBatch>, total: number, steps: MigrationSteps, phase: string,
): Promise<Map<string, StoredMediaRef>> {
  const byUrl = new Map<string, StoredMediaRef>();
  await steps.record({ progress: { phase, done: 0, total } });
  let done = 0;
  for (const next of batches) {
    const { files, logs, skipped } = await next;
    done += files.length + skipped;
    const result = await steps.media({ files }, { progress: { phase, done, total }, logs, statsAdd: { mediaSkipped: skipped } });
    for (const [url, stored] of Object.entries(result.byUrl)) byUrl.set(url, stored);
    if (result.skipped.length) {
      await steps.record({ logs: result.skipped.map((s) => ({ level: 'warning' as const, message: `Media ${s.url} skipped: ${s.reason}` })) });
    }
  }
  return byUrl;
}

function filenameOf(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? 'file';
    return cutText(decodeURIComponent(last), 255) || 'file';
  } catch {
    return 'file';
  }
}

/**
 * Pass one: every entry created fresh, in an order where its references point at entries that
 * exist already, so most are written whole (and published) at once; deferred ones (cycles) are
 * created without their references, as drafts, and completed by pass two.
 */
async function createAll(
  kind: 'item' | 'page', prepared: PreparedEntry[], warnings: ImportWarning[], ids: Map<string, string>, steps: MigrationSteps,
): Promise<PreparedEntry[]> {
  const phase = kind === 'item' ? 'collectionItems' : 'pages';
  const entries = orderForCreation(prepared, new Set(ids.keys()));
  await steps.record({ progress: { phase, done: 0, total: entries.length }, logs: toLogLines(warnings) });
  for (let start = 0; start < entries.length; start += entryBatchSize) {
    const batch = entries.slice(start, start + entryBatchSize);
    const refIds: Record<string, string> = {};
    for (const e of batch) {
      if (e.deferred) continue;
      for (const key of refTargets([e.content, e.locales ?? {}])) {
        const id = ids.get(key);
        if (id) refIds[key] = id;
      }
    }
    const result = await steps.entries({
      entryKind: kind,
      refIds,
      entries: batch.map((e) => ({
        key: e.key,
        typeSlug: e.typeSlug,
        name: e.name,
        slug: e.slug,
        fields: e.deferred ? stripRefs(e.content) : e.content,
        seo: e.seo,
        status: e.deferred ? 'draft' : e.status,
        publishedAt: e.publishedAt,
        publishAt: e.publishAt,
        sourceTimes: e.sourceTimes,
        // A deferred entry gets its other locales with its references, in pass two.
        ...(e.deferred ? {} : { locales: e.locales, seoLocales: e.seoLocales }),
      })),
    }, { progress: { phase, done: start + batch.length, total: entries.length } });
    for (const [key, id] of Object.entries(result.ids)) ids.set(key, id);
    const logs: MigrationLogLine[] = [
      ...result.renamed.map((r): MigrationLogLine => ({ level: 'info', message: `${r.key}: slug "${r.from}" is taken, imported as "${r.to}"` })),
      ...result.skipped.map((s): MigrationLogLine => ({ level: 'error', message: `${s.key} skipped: ${s.reason}`, data: { code: s.code, details: s.details } })),
      ...result.dropped.map((d): MigrationLogLine => ({ level: 'warning', message: `${d.key}: the referenced ${d.target} was not imported; reference dropped` })),
      ...(result.localesLeftOut ?? []).map((l): MigrationLogLine => ({ level: 'warning', message: `${l.key}: ${l.reason}` })),
    ];
    if (logs.length) await steps.record({ logs });
  }
  return entries;
}

/** Pass two: references point at the entries pass one created; then publish as the source had it. */
async function finishAll(kind: 'item' | 'page', entries: PreparedEntry[], ids: Map<string, string>, steps: MigrationSteps): Promise<void> {
  const pending = entries.filter((e) => e.deferred && e.hasRefs && ids.has(e.key));
  await finishInBatches(kind, pending, kind === 'item' ? 'collectionItemReferences' : 'pageReferences', 'references or publish skipped', steps, (e, warnings) => {
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(e.content)) {
      if (containsRef(v)) fields[k] = resolveRefs(v, (key) => ids.get(key), `${e.key}.${k}`, warnings);
    }
    const locales = e.locales ? Object.fromEntries(Object.entries(e.locales).map(([code, values]) => [code, resolveLocaleRefs(values, ids, `${e.key} (locale ${code})`, warnings)])) : undefined;
    return { id: ids.get(e.key)!, fields, publish: e.status === 'published', publishedAt: e.publishedAt, locales, seoLocales: e.seoLocales, sourceTimes: e.sourceTimes };
  });
}

/**
 * Pass three: the source's draft of a published entry, where it differs from what is published,
 * saved as the entry's draft (its published content stays; publishing it later takes the draft live).
 */
async function saveDrafts(kind: 'item' | 'page', entries: PreparedEntry[], ids: Map<string, string>, steps: MigrationSteps): Promise<void> {
  const pending = entries.filter((e) => e.draftContent && ids.has(e.key));
  await finishInBatches(kind, pending, kind === 'item' ? 'collectionItemDrafts' : 'pageDrafts', 'its source draft was not saved', steps, (e, warnings) => {
    const fields = resolveRefs(e.draftContent, (key) => ids.get(key), `${e.key} (draft)`, warnings);
    return { id: ids.get(e.key)!, fields: isPlainObject(fields) ? fields : {}, publish: false, sourceTimes: e.sourceTimes };
  });
}

/**
 * Sends entries created already through the finish step, a batch per transaction, with the
 * phase's progress; what the step skipped (`skipped` names the loss) and the locales it left out
 * are logged.
 */
async function finishInBatches(
  kind: 'item' | 'page', pending: PreparedEntry[], phase: string, skipped: string, steps: MigrationSteps,
  toFinish: (entry: PreparedEntry, warnings: ImportWarning[]) => FinishEntry,
): Promise<void> {
  if (pending.length === 0) return;
  await steps.record({ progress: { phase, done: 0, total: pending.length } });
  for (let start = 0; start < pending.length; start += entryBatchSize) {
    const batch = pending.slice(start, start + entryBatchSize);
    const warnings: ImportWarning[] = [];
    const result = await steps.finish({ entryKind: kind, entries: batch.map((e) => toFinish(e, warnings)) },
      { progress: { phase, done: start + batch.length, total: pending.length }, logs: toLogLines(warnings) });
    if (result.skipped.length) {
      await steps.record({ logs: result.skipped.map((s): MigrationLogLine => ({ level: 'error', message: `${kind} ${s.id}: ${skipped}: ${s.reason}`, data: { code: s.code, details: s.details } })) });
    }
    if (result.localesLeftOut?.length) {
      await steps.record({ logs: result.localesLeftOut.map((l): MigrationLogLine => ({ level: 'warning', message: `${kind} ${l.id}: ${l.reason}` })) });
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Report.

interface SourceSummary {
  pages: number;
  singlePages: number;
  pagesByType: Record<string, number>;
  collectionItems: number;
  itemsByCollection: Record<string, number>;
  /** Present once the blog was read (a dry run reads it up front, an import when it gets there). */
  blogPosts?: number;
  blogAuthors?: number;
  blogCategories?: number;
  blogTags?: number;
}

function summariseSource(source: SourceData): SourceSummary {
  const pagesByType: Record<string, number> = {};
  for (const p of source.pages) if (p.page_type) pagesByType[p.page_type] = (pagesByType[p.page_type] ?? 0) + 1;
  const itemsByCollection = Object.fromEntries([...source.collections].map(([k, v]) => [k, v.length]));
  return {
    pages: source.pages.length,
    singlePages: source.pages.filter((p) => p.page_type === null).length,
    pagesByType,
    collectionItems: Object.values(itemsByCollection).reduce((a, b) => a + b, 0),
    itemsByCollection,
    ...(source.blogRead ? {
      blogPosts: source.posts.length,
      blogAuthors: source.authors.length,
      blogCategories: source.categories.length,
      blogTags: source.tags.length,
    } : {}),
  };
}

function describeCounts(s: SourceSummary): string {
  const blog = s.blogPosts === undefined ? ' (the blog is read when the import gets to it)'
    : `, ${s.blogPosts} blog posts, ${s.blogAuthors} authors, ${s.blogCategories} categories, ${s.blogTags} tags`;
  return `${s.pages} pages (${s.singlePages} single), ${s.collectionItems} collection items${blog}`;
}

function describeStats(stats: Stats): string {
  return Object.entries(stats).map(([k, v]) => `${k} ${v}`).join(', ');
}

function discoveryNote(source: SourceData): string {
  const list = (xs: string[]) => (xs.length ? xs.join(', ') : 'none');
  return 'ButterCMS cannot list its page types or collections, so only these were read: ' +
    `page types configured ${list(source.pageTypes.configured)}, found in content besides those ${list(source.pageTypes.discovered)}; ` +
    `collections configured ${list(source.collectionKeys.configured)}, found in content besides those ${list(source.collectionKeys.discovered)}. ` +
    'Page types and collections that are neither configured nor referenced were not discovered: name them with pageTypes/collections ' +
    '(--page-types, --collections).';
}

function buildReport(
  source: SourceData, plan: ImportPlan, merge: MergeResult, mediaUrls: string[], warnings: ImportWarning[], problems: string[], apiUrl: string,
): Record<string, unknown> {
  const types = (list: ImportPlan['pageTypes']) => list.map((t) => ({ slug: t.slug, name: t.name, source: t.source, fields: t.fields }));
  return {
    source: {
      apiUrl,
      pageTypes: source.pageTypes,
      collections: source.collectionKeys,
      unknownItemIds: source.unknownItemIds,
    },
    types: { components: types(plan.components), pageTypes: types(plan.pageTypes), collections: types(plan.collections) },
    schemaChanges: { created: merge.created, extended: merge.extended, reused: merge.reused },
    counts: { ...summariseSource(source), mediaUrls: mediaUrls.length },
    warnings: [discoveryNote(source), ...warnings.filter((w) => w.level !== 'info').map((w) => w.message), ...merge.adapted, ...problems],
  };
}


// ------------------------------------------------------------------------------------------------
// Locales.

function prepareLocales(decision: LocaleDecision | null, lookup: LocaleLookup | null): PrepareContext['locales'] {
  return decision && lookup ? { base: decision.base, own: decision.own, lookup } : undefined;
}

function resolveLocaleRefs(values: Record<string, unknown>, ids: Map<string, string>, where: string, warnings: ImportWarning[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    const r = containsRef(v) ? resolveRefs(v, (key) => ids.get(key), `${where}.${k}`, warnings) : v;
    if (r !== undefined) out[k] = r;
  }
  return out;
}

function localesReport(decision: LocaleDecision, localized: Map<{ kind: SchemaKind; slug: string }, string[]>): Record<string, unknown> {
  return {
    read: decision.listed,
    defaultLocale: decision.defaultLocale,
    ...(decision.setDefault ? { setDefault: decision.setDefault } : {}),
    add: decision.add,
    contentFrom: decision.base,
    storedUnderOwnCode: decision.own,
    localizedFields: Object.fromEntries([...localized].map(([t, names]) => [`${t.kind}/${t.slug}`, names])),
  };
}

function localePlanLogs(decision: LocaleDecision, localized: Map<PlannedType, string[]>): MigrationLogLine[] {
  const lines: MigrationLogLine[] = [
    { level: 'info', message: `Locales read: ${decision.listed.join(', ')} (the first as the source's default); localized fields: ${describeLocalized(localized)}` },
    {
      level: 'info',
      message: `The entries' own content (the default locale ${decision.defaultLocale}) comes from ${decision.base}` +
        (decision.own.length ? `; ${decision.own.join(', ')} stored under ${decision.own.length === 1 ? 'its own code' : 'their own codes'}` : ''),
    },
  ];
  if (!decision.listed.includes(decision.defaultLocale)) {
    lines.push({ level: 'warning', message: `The project's default locale ${decision.defaultLocale} is not among the locales read: its values are ${decision.base}'s until written` });
  }
  return lines;
}

function localeWriteLogs(written: SchemaWriteResult): MigrationLogLine[] {
  const l = written.locales;
  if (!l) return [];
  return [
    ...l.added.map((a): MigrationLogLine => ({ level: 'info', message: `Added the locale ${a.code} (${a.name}) to the project` })),
    ...(l.previousDefault ? [{ level: 'info' as const, message: `Made ${l.defaultLocale} the project's default locale (it had only ${l.previousDefault} and no content)` }] : []),
  ];
}

/** Marks localized the planned fields that the written schema has localized (the project's own say so). */
function adoptLocalized(plan: ImportPlan, merge: MergeResult): void {
  for (const kind of ['pageTypes', 'collections'] as const) {
    for (const type of plan[kind]) {
      const written = merge.write[kind].find((t) => t.slug === type.slug);
      const names = new Set(written?.fields.filter((f) => f.localized === true).map((f) => f.name) ?? []);
      if (names.size) type.fields = type.fields.map((f) => (names.has(f.name) && f.localized !== true ? { ...f, localized: true } : f));
    }
  }
}
