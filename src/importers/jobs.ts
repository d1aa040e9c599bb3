import type { JobFactory } from '../jobs.js';

/** Background migration runs. */
export const migrationJobs: JobFactory = () => [];
