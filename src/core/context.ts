import type { Db } from '../db/client.js';
import type { Actor } from './actor.js';

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
  /** Folder for media files (per project below it). */
  mediaDir: string;
  /** Largest accepted upload in bytes. */
  maxUploadBytes: number;
}

/**
 * Ports the core reaches the outside through. Implementations live outside core/
 * (webhooks/, importers/, media storage) and are handed in by the runtime.
 */
export interface Services {
  [name: string]: unknown;
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
  /** Writes the event to the outbox in the current transaction; delivered after commit. */
  emit(kind: EventKind, data: unknown): Promise<void>;
  /** Marks the project's public content as changed: caches drop it once the write commits. */
  contentChanged(): void;
  /** Marks API keys as changed (revoked): key caches drop them once the write commits. */
  keysChanged(): void;
  /** Runs after the transaction commits (never when it rolls back). */
  afterCommit(fn: () => void | Promise<void>): void;
}
