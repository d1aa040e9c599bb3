import type { Db } from '../../db/client.js';
import type { Clock, Logger, Services } from '../context.js';

/** What one dispatcher pass did. */
export interface WebhookPassSummary {
  /** Deliveries this pass claimed and attempted. */
  attempted: number;
  succeeded: number;
  /** Failed and scheduled for a retry. */
  failed: number;
  /** Failed for the last time. */
  exhausted: number;
}

/**
 * The port through which the core sends webhooks. The core only writes delivery rows (the
 * outbox); sending them is network work, done by an implementation outside core/
 * (src/webhooks/dispatcher.ts) that the server hands in as `services.webhookDispatcher`.
 */
export interface WebhookDispatcher {
  /** One pass: sends every delivery that is due (all projects) and waits for the answers. */
  processDue(): Promise<WebhookPassSummary>;
}

export interface WebhookDispatcherDeps {
  db: Db;
  clock: Clock;
  log: Logger;
}

/** Makes a short-lived dispatcher for a process that has none running (a CLI command). */
export type WebhookDispatcherFactory = (deps: WebhookDispatcherDeps) => WebhookDispatcher & { close(): Promise<void> };

export const webhookDispatcherService = 'webhookDispatcher';

const isDispatcher = (value: unknown): value is WebhookDispatcher =>
  typeof value === 'object' && value !== null && typeof (value as { processDue?: unknown }).processDue === 'function';

/** The dispatcher running in this engine (the server's), if any. */
export const runningDispatcherOf = (services: Services): WebhookDispatcher | null => {
  const value = services[webhookDispatcherService];
  return isDispatcher(value) ? value : null;
};

let fallbackFactory: WebhookDispatcherFactory | null = null;

/**
 * A process without a running dispatcher (`cms webhooks process` on its own) says here how to
 * make one; the implementation module cannot be imported from the core.
 */
export function provideWebhookDispatcherFactory(factory: WebhookDispatcherFactory): void {
  fallbackFactory = factory;
}

export const webhookDispatcherFactory = (): WebhookDispatcherFactory | null => fallbackFactory;
