import type { JobFactory } from '../background-jobs.js';
import { settleStaleMigrationsOp } from '../core/migrations/index.js';

/**
 * Migrations whose runner died (a server stopped mid-run, a CLI that was killed) are marked failed
 * when the server starts, and every little while after, so nobody waits on them.
 */
export const migrationJobs: JobFactory = (cms) => [{
  name: 'migrations',
  intervalMs: 15_000,
  async tick() {
    const settled = await cms.run(settleStaleMigrationsOp, {}, { actor: { kind: 'system', job: 'migrations' } });
    if (settled > 0) cms.log.warn(`marked ${settled} migration(s) failed: the process running them stopped`);
  },
}];
