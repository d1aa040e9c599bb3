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
 * (src/webhooks/dispatcher.ts). The engine owns one from the start (`services.webhooks`); the
 * server's background job drives it, and `webhooks.process` runs one pass with it.
 */
export interface WebhookDispatcher {
  /** One pass: sends every delivery that is due (all projects) and waits for the answers. */
  processDue(): Promise<WebhookPassSummary>;
  /** Tells a pass that is waiting on slow receivers that new deliveries were committed. */
  wake(): void;
  /**
   * Stops claiming at once, gives attempts in flight the shutdown grace period to finish, cuts
   * the rest short (their deliveries stay due in the outbox), then closes the connection pool.
   * A closed dispatcher sends nothing more; closing it again does nothing.
   */
  close(): Promise<void>;
}
