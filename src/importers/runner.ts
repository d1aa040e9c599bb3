// Runs migrations in the background of this process (the server's, or the CLI's `migrate run`),
// behind the core's MigrationRunner port. Each running migration shows a heartbeat on its record;
// the record names this runner (host/pid/nonce), so a status read elsewhere can tell when the
// process that ran it has died.

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Dispatcher } from 'undici';
import { migrationHeartbeat, type MigrationRunner, type MigrationRunRef } from '../core/migrations/index.js';
import type { Cms } from '../runtime.js';
import { propertyOf } from '../lib/unknown-values.js';

export interface MigrationRunnerOptions {
  /** Least time between source requests; the default is the contract's 100 ms (tests lower it). */
  minIntervalMs?: number;
  /** How often a running migration shows a sign of life (default 5 s; 30 s of silence is death). */
  heartbeatMs?: number;
  dispatcher?: Dispatcher;
  /** Bytes of blog files downloaded ahead while the entries are written (default 64 MB; tests lower it). */
  blogAheadMaxBytes?: number;
}

export interface ProcessMigrationRunner extends MigrationRunner {
  /** Migrations running here now, by id. */
  readonly active: ReadonlySet<string>;
  /** Resolves once this process is no longer running the migration (at once if it is not). */
  settled(id: string): Promise<void>;
  /**
   * Stops every run (the process is stopping): requests in flight are cancelled, the batch being
   * written finishes, and each migration is marked failed with a log line saying why.
   */
  stop(): Promise<void>;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return propertyOf(e, 'code') === 'EPERM';
  }
}

export function createMigrationRunner(getCms: () => Cms, options: MigrationRunnerOptions = {}): ProcessMigrationRunner {
  const host = hostname();
  const runnerId = `${host}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const running = new Map<string, { task: Promise<void>; controller: AbortController }>();
  const ids = new Set<string>();
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  let stopping = false;

  function start(ref: MigrationRunRef): void {
    if (stopping || running.has(ref.id)) return;
    const controller = new AbortController();
    const cms = getCms();
    const runOptions = { actor: { kind: 'system' as const, job: 'migration' }, project: ref.projectSlug };
    const beat = setInterval(() => {
      cms.run(migrationHeartbeat, { id: ref.id, runnerId }, runOptions)
        .then((ours) => { if (!ours) controller.abort(); })
        .catch((e: unknown) => cms.log.warn(`migration ${ref.id}: heartbeat failed`, { error: String(e) }));
    }, heartbeatMs);
    beat.unref();
    const task = (async () => {
      try {
        // Loaded on first use: the CLI starts without the HTTP client and the importer.
        const { runButterMigration } = await import('./buttercms/run.js');
        await runButterMigration({
          cms, ref, runnerId, signal: controller.signal, minIntervalMs: options.minIntervalMs, dispatcher: options.dispatcher, blogAheadMaxBytes: options.blogAheadMaxBytes,
        });
      } catch (e) {
        cms.log.error(`migration ${ref.id}: the runner failed`, { error: e instanceof Error ? e.stack ?? e.message : String(e) });
      } finally {
        clearInterval(beat);
        running.delete(ref.id);
        ids.delete(ref.id);
      }
    })();
    running.set(ref.id, { task, controller });
    ids.add(ref.id);
  }

  return {
    runnerId,
    start,
    isAlive(id) {
      if (id === runnerId) return true;
      const [otherHost, pid] = id.split('/');
      if (otherHost !== host || !pid || !/^\d+$/.test(pid)) return undefined;
      // A live pid may be another program by now: then the heartbeat decides.
      return isProcessAlive(Number(pid)) ? undefined : false;
    },
    active: ids,
    async settled(id) {
      await running.get(id)?.task;
    },
    async stop() {
      stopping = true;
      for (const { controller } of running.values()) controller.abort();
      await Promise.allSettled([...running.values()].map((r) => r.task));
    },
  };
}
