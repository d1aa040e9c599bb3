import type { Cms } from './runtime.js';
import { migrationJobs } from './importers/migration-jobs.js';
import { webhookJobs } from './webhooks/delivery-jobs.js';

export interface Job {
  name: string;
  /** One pass; the runner calls it on its interval and never twice at once. */
  tick(): Promise<void>;
  intervalMs: number;
  /** Also run a pass when the engine announces this (e.g. new outbox rows). */
  wakeOn?: 'outbox';
  /**
   * Called once as soon as the server stops, while a pass may still be running: it makes that
   * pass wrap up within a bounded time (the runner waits for both).
   */
  stop?(): Promise<void>;
}

export interface RunningJobs {
  stop(): Promise<void>;
}

export type JobFactory = (cms: Cms) => Job[];

/** Publishes what is scheduled and due, in every project, every minute. */
const schedulerJobs: JobFactory = (cms) => [{
  name: 'scheduler',
  intervalMs: 60_000,
  async tick() {
    const actor = { kind: 'system', job: 'scheduler' } as const;
    const projects = await cms.run('projects.list', {}, { actor });
    for (const project of projects) await cms.run('content.publishDue', {}, { actor, project: project.slug });
  },
}];

/**
 * Keeps the planner's statistics and the visibility map fresh: every minute, ANALYZE (and VACUUM)
 * on the tables where enough rows changed since the last one, by autovacuum's rules (PGlite never
 * runs them by itself; on PostgreSQL autovacuum does and this does nothing). The check is one
 * query; they run only after real change.
 */
const statisticsJobs: JobFactory = (cms) => [{
  name: 'statistics',
  intervalMs: 60_000,
  async tick() {
    const analyzed = await cms.services.statistics.refresh();
    if (analyzed.length) cms.log.info('planner statistics refreshed', { tables: analyzed });
  },
}];

/** The server's background jobs, feature by feature. */
const factories: JobFactory[] = [schedulerJobs, webhookJobs, migrationJobs, statisticsJobs];

/** Background work of `cms serve`: each job runs on its interval, never twice at once. */
export function startJobs(cms: Cms, jobs: Job[] = factories.flatMap((f) => f(cms))): RunningJobs {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();
  const offs: Array<() => void> = [];
  let stopped = false;
  for (const job of jobs) {
    let busy = false;
    let again = false;
    const fire = () => {
      if (stopped) return;
      if (busy) { again = true; return; }
      busy = true;
      const p = job.tick()
        .catch((e) => cms.log.error(`job ${job.name} failed`, { error: e instanceof Error ? e.stack ?? e.message : String(e) }))
        .finally(() => {
          busy = false;
          running.delete(p);
          if (again) { again = false; fire(); }
        });
      running.add(p);
    };
    timers.push(setInterval(fire, job.intervalMs));
    if (job.wakeOn === 'outbox') {
      cms.events.on('outbox', fire);
      offs.push(() => cms.events.off('outbox', fire));
    }
    fire();
  }
  return {
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      for (const off of offs) off();
      // Not one after the other: a job's stop is what ends its long pass (webhooks with a backlog).
      await Promise.allSettled([...running, ...jobs.map((job) => job.stop?.())]);
    },
  };
}
