import { apiAll, apiData } from '../../api';

// The migrations of the admin API (docs/migrating-from-buttercms.md), as the Migrations screen reads
// them. The record's `config.apiKey` (the ButterCMS read token, returned whole to developers) is
// dropped the moment an answer arrives: the screen never shows it back and never keeps it.

export const modes = [
  { value: 'dry_run', label: 'Dry run', help: 'Reads the source and reports what it would create; writes nothing.' },
  { value: 'schema_only', label: 'Schema only', help: 'Creates or extends page types, collections and components.' },
  { value: 'full', label: 'Full', help: 'Media, schema, collection items, pages and the blog.' },
  { value: 'incremental', label: 'Incremental', help: 'The same as full: a complete re-import (no diffing).' },
] as const;

export const logLevels = ['error', 'warning', 'info'] as const;
export type LogLevel = (typeof logLevels)[number];

export interface Progress { phase: string; done: number; total: number }

/** A migration record without its token. */
export interface Migration {
  id: string;
  sourcePlatform: string;
  mode: string;
  config: { apiUrl?: string; pageTypes?: string[]; collections?: string[]; locales?: string[]; mediaHosts?: string[] };
  status: string;
  progress: Progress;
  stats: Record<string, number>;
  report: Report | null;
  error: string | null;
  pauseRequested: boolean;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface LogLine { id: number; level: string; message: string; data: Record<string, unknown> | null; createdAt: string }

export interface ReportField { name: string; type: string; [key: string]: unknown }
export interface ReportType { slug: string; name: string; source: string; fields: ReportField[] }
export interface Discovery { configured?: string[]; discovered?: string[]; missing?: string[] }
export interface Report {
  source?: { apiUrl?: string; pageTypes?: Discovery; collections?: Discovery; unknownItemIds?: string[] };
  types?: { components?: ReportType[]; pageTypes?: ReportType[]; collections?: ReportType[] };
  schemaChanges?: {
    created?: Array<{ kind: string; slug: string }>;
    extended?: Array<{ kind: string; slug: string; fields: string[] }>;
    reused?: Array<{ kind: string; slug: string }>;
  };
  counts?: Record<string, number | Record<string, number> | undefined>;
  warnings?: string[];
  locales?: Record<string, unknown>;
}

export const runningStatuses = ['mapping', 'validating', 'importing'];
export const isRunning = (status: string) => runningStatuses.includes(status);
/** Still changing: running, or created and about to be started. */
export const isLive = (m: Pick<Migration, 'status'>) => isRunning(m.status);

const statusLabels: Record<string, string> = {
  pending: 'Pending', mapping: 'Mapping', validating: 'Validating', importing: 'Importing',
  paused: 'Paused', completed: 'Completed', failed: 'Failed',
};
export const statusLabel = (s: string) => statusLabels[s] ?? s;
export const modeLabel = (m: string) => modes.find((x) => x.value === m)?.label ?? m;

const phaseLabels: Record<string, string> = {
  pending: 'Waiting to start', mapping: 'Reading the source', mappingLocales: 'Reading other locales',
  validating: 'Checking against the project schema', schema: 'Writing the schema', media: 'Downloading media',
  collectionItems: 'Writing collection items', pages: 'Writing pages',
  collectionItemReferences: 'Linking collection items', pageReferences: 'Linking pages',
  collectionItemDrafts: 'Saving collection item drafts', pageDrafts: 'Saving page drafts',
  blogRead: 'Reading the blog', blogMedia: 'Downloading blog media',
  blogTerms: 'Writing blog categories and tags', blogAuthors: 'Writing blog authors', blogPosts: 'Writing blog posts',
  done: 'Done',
};
export const phaseLabel = (p: string) => phaseLabels[p] ?? p;

/** 0–100, or null when the phase has no known total yet. */
export function percent(p: Progress): number | null {
  if (p.phase === 'done') return 100;
  if (!p.total || p.total <= 0) return null;
  return Math.max(0, Math.min(100, Math.round((p.done / p.total) * 100)));
}

/** "a, b , c" or lines → ["a", "b", "c"], blanks dropped. */
export function parseList(text: string): string[] {
  return text.split(/[\n,]/).map((s) => s.trim()).filter((s) => s !== '');
}

const statLabels: Record<string, string> = {
  pageTypes: 'Page types', collections: 'Collections', components: 'Components', pages: 'Pages',
  collectionItems: 'Collection items', blogPosts: 'Blog posts', blogAuthors: 'Blog authors',
  blogAuthorsMatched: 'Authors matched', blogCategories: 'Blog categories', blogCategoriesMatched: 'Categories matched',
  blogTags: 'Blog tags', blogTagsMatched: 'Tags matched',
  media: 'Media imported', mediaDeduplicated: 'Media deduplicated', mediaSkipped: 'Media skipped',
  skipped: 'Entries skipped', sourceRequests: 'Source requests', sourceWaitMs: 'Spacing wait (ms)', warnings: 'Warnings',
  singlePages: 'Single pages', mediaUrls: 'Media URLs',
};
export const statLabel = (k: string) => statLabels[k] ?? k;
/** Counts in a reading order (the kinds first, then media, then the source's figures). */
export function orderedStats(stats: Record<string, unknown>): Array<[string, number]> {
  const keys = Object.keys(statLabels);
  const rank = (k: string) => (keys.includes(k) ? keys.indexOf(k) : keys.length);
  return Object.entries(stats).filter((e): e is [string, number] => typeof e[1] === 'number').sort((a, b) => rank(a[0]) - rank(b[0]));
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The record as the screen keeps it: the token removed from its config. */
export function withoutToken(raw: unknown): Migration {
  const r = isRecord(raw) ? raw : {};
  const { apiKey: _dropped, ...config } = isRecord(r.config) ? r.config : {};
  return { ...r, config } as Migration; // cast: the admin API's migration record (docs/migrating-from-buttercms.md)
}

const base = '/migrations';

export async function listMigrations(project: string): Promise<Migration[]> {
  const rows = await apiAll<unknown>(base, { project });
  return rows.map(withoutToken);
}

export async function getMigration(project: string, id: string): Promise<Migration> {
  return withoutToken(await apiData<unknown>(`${base}/${encodeURIComponent(id)}`, { project }));
}

export async function getLogs(project: string, id: string, level: LogLevel | ''): Promise<LogLine[]> {
  const qs = new URLSearchParams({ limit: String(logLimit) });
  if (level) qs.set('level', level);
  return apiData<LogLine[]>(`${base}/${encodeURIComponent(id)}/logs?${qs}`, { project });
}
export const logLimit = 2000;

export interface NewMigration {
  mode: string;
  apiKey: string;
  apiUrl: string;
  pageTypes: string[];
  collections: string[];
  locales: string[];
}

export async function createMigration(project: string, input: NewMigration): Promise<Migration> {
  const config: Record<string, unknown> = { apiKey: input.apiKey };
  if (input.apiUrl.trim()) config.apiUrl = input.apiUrl.trim();
  if (input.pageTypes.length) config.pageTypes = input.pageTypes;
  if (input.collections.length) config.collections = input.collections;
  if (input.locales.length) config.locales = input.locales;
  return withoutToken(await apiData<unknown>(base, { project, method: 'POST', body: { sourcePlatform: 'buttercms', mode: input.mode, config } }));
}

export async function migrationAction(project: string, id: string, action: 'start' | 'pause'): Promise<Migration> {
  return withoutToken(await apiData<unknown>(`${base}/${encodeURIComponent(id)}/${action}`, { project, method: 'POST', body: {} }));
}

export async function deleteMigration(project: string, id: string): Promise<void> {
  await apiData<unknown>(`${base}/${encodeURIComponent(id)}`, { project, method: 'DELETE', body: {} });
}
