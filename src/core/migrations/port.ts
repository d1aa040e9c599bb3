/** Names the migration a runner is to run. */
export interface MigrationRunRef {
  id: string;
  projectId: string;
  projectSlug: string;
}

/**
 * The port through which the core starts migrations. Running one is network work (the source
 * API, media downloads), done outside core/ (src/importers/runner.ts); the runtime builds it once as
 * `services.migrationRunner`. The core only records states; the runner moves them on.
 */
export interface MigrationRunner {
  /** This process's runner, written on the migrations it runs (with its heartbeat). */
  readonly runnerId: string;
  /** Begins running a migration in the background of this process; called after the start commits. */
  start(ref: MigrationRunRef): void;
  /**
   * Whether the runner named on a record still lives: false when it is known to be gone (its
   * process on this machine has ended), undefined when this process cannot tell (another machine).
   */
  isAlive(runnerId: string): boolean | undefined;
  /**
   * Stops every run (the engine is closing): requests in flight are cancelled, and each migration
   * is marked failed with a log line saying why.
   */
  stop(): Promise<void>;
}

/** A runner that shows no sign of life for this long is taken for dead. */
export const staleHeartbeatMs = 30_000;
