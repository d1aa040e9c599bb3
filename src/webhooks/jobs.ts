import type { JobFactory } from '../jobs.js';

/** The webhook dispatcher and its retry pass. */
export const webhookJobs: JobFactory = () => [];
