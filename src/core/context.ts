import type { z } from 'zod';
import type { Db } from '../db/client.js';
import type { Actor } from './actor.js';
import type { AiService } from './ai/port.js';
import type { ProjectLocales } from './locales/model.js';
import type { MediaStore, MediaStores } from './media/storage.js';
import type { MigrationRunner } from './migrations/port.js';
import type { Operation } from './operation.js';
import type { WebhookDispatcher } from './webhooks/port.js';

export interface Clock {
  now(): Date;
}

export interface Logger {
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

export interface ProjectRef {
  id: string;
  slug: string;
  /** The project's locales and its default (read with the project; a change of them is a project change, ctx.projectChanged). */
  locales: ProjectLocales;
}

export const eventKinds = [
  'page.created', 'page.updated', 'page.published', 'page.unpublished', 'page.deleted',
  'collection_item.created', 'collection_item.updated', 'collection_item.published',
  'collection_item.unpublished', 'collection_item.deleted',
  'media.uploaded', 'media.deleted',
] as const;
export type EventKind = (typeof eventKinds)[number];

/** Settings the core needs; the rest of the configuration stays with the doors. */
export interface CoreSettings {
  /** Public base URL, used for media file URLs. */
  baseUrl: string;
  /** Largest accepted upload in bytes. */
  maxUploadBytes: number;
  /** The site's preview URL template, for the admin app (null: none configured). */
  previewUrl: string | null;
}

/**
 * Ports the core reaches the outside through. Implementations live outside core/ (src/media/,
 * src/importers/, src/webhooks/); `createCms` builds each one once from the configuration (a
 * caller may hand in its own) and they never change while the engine runs.
 */
export interface Services {
  /** The media store: where uploaded files are written, read and removed. */
  mediaFiles: MediaStore;
  /** The configured media stores by driver, for copying files from one to the other. */
  mediaStores: MediaStores;
  /** Runs ButterCMS migrations in the background of this process. */
  migrationRunner: MigrationRunner;
  /** Sends the webhook deliveries of the outbox (`cms serve` drives it; `cms webhooks process` runs one pass). */
  webhooks: WebhookDispatcher;
  /** Remembers the totals of list queries with the content revision they were counted at. */
  listTotals: ListTotals;
  /** What public lists are made of (ordered ids, totals, read shapes), kept between reads until the project's content changes. */
  readMemory: ReadMemory;
  /** Keeps the planner's statistics and the visibility map fresh where nothing else does (PGlite never runs ANALYZE or VACUUM). */
  statistics: PlannerStatistics;
  /** AI assistance (src/ai/): the configured provider, or none, and the per-caller limit on calls. */
  ai: AiService;
}

export interface PlannerStatistics {
  /** Rows were just written in bulk: statistics are refreshed once the writes pause. */
  rowsWritten(): void;
  /** Refreshes what is out of date now (ANALYZE, VACUUM); returns the tables it ran on. */
  refresh(): Promise<string[]>;
}

/** A list total, exact while the project's content revision is still `revision`. */
export interface ListTotal {
  revision: number;
  total: number;
}

/**
 * Totals of list queries (counting every match is what a list costs most, and a count only
 * changes with a content write). Bounded; an entry is used only while the revision it was counted
 * at is the current one. `db` is the connection the count ran on: totals are kept only for the
 * engine's own database, never for a transaction (whose uncommitted rows no one else sees).
 */
export interface ListTotals {
  get(db: Db, key: string): ListTotal | undefined;
  set(db: Db, key: string, total: ListTotal): void;
}

/**
 * Values a read computed, kept for the project's current generation: any content change moves the
 * project to a new one, and the older values are never read again. `generation` is null when
 * nothing may be kept for this read (memory off, changes not followed, or `db` a transaction).
 * Kept values are shared between reads and never changed.
 */
export interface ReadMemory {
  generation(db: Db, projectId: string): number | null;
  get(projectId: string, generation: number, key: string): unknown;
  /** `bytes`: about what the value holds in memory. A value computed across a change is not kept. */
  set(projectId: string, generation: number, key: string, value: unknown, bytes: number): void;
}

export interface Ctx {
  /** Inside a write operation this is its transaction; nested operations join it. */
  db: Db;
  project: ProjectRef;
  actor: Actor;
  clock: Clock;
  log: Logger;
  settings: CoreSettings;
  services: Services;
  /**
   * Writes the event to the outbox in the current transaction; delivered after commit. `locales`
   * names the locales whose values changed: in a project with several locales the event carries
   * them (a webhook payload's top-level `locales`); with one locale it is left out.
   */
  emit(kind: EventKind, data: unknown, opts?: { locales?: readonly string[] }): Promise<void>;
  /** Marks the project's public content as changed: caches drop it once the write commits. */
  contentChanged(): void;
  /**
   * Marks the project's own row (its locales) as changed, and with it its content: every engine
   * reads the project again once the write commits (a content change alone keeps it).
   */
  projectChanged(): void;
  /** Marks API keys as changed (revoked): key caches drop them once the write commits. */
  keysChanged(): void;
  /** Runs after the transaction commits (never when it rolls back). */
  afterCommit(fn: () => void | Promise<void>): void;
  /**
   * Runs a write operation as this actor, in its own transaction (access checked, input parsed,
   * events after commit). Only from a read operation: one whose work must finish a network call
   * before it writes (no network call happens inside a transaction). `answer` is what the calling
   * operation will answer; an idempotent door stores it with the write.
   */
  runWrite<S extends z.ZodType, O>(op: Operation<S, O>, input: z.input<S>, answer: unknown): Promise<O>;
}
