import { z } from 'zod';
import type { migrations } from '../../db/schema/index.js';
import type { MigrationProgress } from '../../db/schema/ops.js';
import type { Access } from '../operation.js';
import { localeCodePattern } from '../locales/model.js';

/** Migrations are developer work (the developer role or higher); API keys never run them. */
export const migrationAccess: Access = { role: 'developer' };

export const migrationModes = ['dry_run', 'schema_only', 'full', 'incremental'] as const;
export type MigrationMode = (typeof migrationModes)[number];

export const migrationStatuses = ['pending', 'mapping', 'validating', 'importing', 'paused', 'completed', 'failed'] as const;
export type MigrationStatus = (typeof migrationStatuses)[number];

/** The states in which a runner is at work; pause is allowed only from these. */
export const runningStatuses: readonly MigrationStatus[] = ['mapping', 'validating', 'importing'];
export const isRunningStatus = (status: string): boolean => runningStatuses.some((s) => s === status);

export const logLevels = ['error', 'warning', 'info'] as const;
export type LogLevel = (typeof logLevels)[number];

/** A list given as an array or as one comma-separated string (CLI flags). */
const nameList = z.union([z.array(z.string()), z.string()])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter((s) => s !== ''))
  .pipe(z.array(z.string().min(1).max(200)).max(200));

/**
 * Blank means the default source endpoint (the contract); anything else must be an http(s) URL, with
 * or without `/v2`. It is stored as given (the record returns the credentials as they were sent);
 * the import reads it in one form (`http://host:port` and `…/v2/` → `…/v2`, normaliseButterApiUrl).
 */
const apiUrl = z.string().trim().max(2048).optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, like https://api.buttercms.com/v2' }).optional());

/** What the source needs: the read token, and what ButterCMS cannot list by itself (page types, collection keys). */
export const butterConfigSchema = z.strictObject({
  apiKey: z.string().trim().min(1, 'the ButterCMS read token is required').max(500),
  apiUrl,
  pageTypes: nameList.optional(),
  collections: nameList.optional(),
  /** Hosts whose URLs are media files besides cdn.buttercms.com and *.cloudfront.net. */
  mediaHosts: nameList.optional(),
  /**
   * The account's locales to read (ButterCMS API slugs, like `en`, `fr`, `pt-br`), the first one
   * read as the default. Absent: read as before, with no `locale` parameter.
   */
  locales: nameList.optional().superRefine((codes, issue) => {
    if (codes === undefined) return;
    if (codes.length === 0) issue.addIssue({ code: 'custom', message: 'list at least one locale, like "en,fr"' });
    for (const c of codes) {
      if (!localeCodePattern.test(c)) issue.addIssue({ code: 'custom', message: `"${c}" is not a locale code like "en", "fr" or "pt-br"` });
    }
    const twice = codes.filter((c, i) => codes.indexOf(c) !== i);
    if (twice.length) issue.addIssue({ code: 'custom', message: `"${twice[0]}" is listed twice` });
  }),
});
export type ButterConfig = z.output<typeof butterConfigSchema>;

export const createMigrationInput = z.strictObject({
  sourcePlatform: z.literal('buttercms', { error: 'the supported source is "buttercms"' }),
  mode: z.enum(migrationModes, { error: `must be one of ${migrationModes.join(', ')}` }),
  config: butterConfigSchema,
});

export interface MigrationLogLine {
  level: LogLevel;
  message: string;
  data?: Record<string, unknown> | undefined;
}

export const logLineSchema = z.object({
  level: z.enum(logLevels),
  message: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});

/** A migration as the admin API and the CLI show it (credentials included: developers see them). */
export interface MigrationView {
  id: string;
  sourcePlatform: string;
  mode: string;
  config: Record<string, unknown>;
  status: string;
  progress: MigrationProgress;
  stats: Record<string, number>;
  report: Record<string, unknown> | null;
  error: string | null;
  pauseRequested: boolean;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  heartbeatAt: string | null;
}

export type MigrationRow = typeof migrations.$inferSelect;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function toMigrationView(row: MigrationRow): MigrationView {
  return {
    id: row.id,
    sourcePlatform: row.sourcePlatform,
    mode: row.mode,
    config: row.config,
    status: row.status,
    progress: row.progress,
    stats: row.stats,
    report: row.report ?? null,
    error: row.error,
    pauseRequested: row.pauseRequested !== null,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    heartbeatAt: iso(row.heartbeatAt),
  };
}

export interface MigrationLogView {
  id: number;
  level: string;
  message: string;
  data: Record<string, unknown> | null;
  createdAt: string;
}
