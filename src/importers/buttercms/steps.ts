// How the runner writes: one method per kind of step operation (src/core/migrations/steps.ts),
// each batch typed as that step's input and answered with that step's result.

import type { Actor } from '../../core/actor.js';
import {
  migrationBlogAuthorsStep, migrationBlogPostsStep, migrationBlogTermsStep, migrationEntriesStep, migrationFinishStep,
  migrationMediaStep, migrationSchemaStep, migrationStep,
  type BlogAuthorsWrite, type BlogAuthorsWriteResult, type BlogPostsWrite, type BlogPostsWriteResult, type BlogTermsWrite,
  type BlogTermsWriteResult, type EntriesWrite, type EntriesWriteResult, type FinishWrite, type FinishWriteResult,
  type MediaWrite, type MediaWriteResult, type SchemaWrite, type SchemaWriteResult, type StepOutput, type StepRecord,
} from '../../core/migrations/index.js';
import type { Cms } from '../../runtime.js';

export interface MigrationSteps {
  /** Records status, progress, stats, report or log lines, with no batch. */
  record(record: StepRecord): Promise<void>;
  schema(write: SchemaWrite, record?: StepRecord): Promise<SchemaWriteResult>;
  media(write: MediaWrite, record?: StepRecord): Promise<MediaWriteResult>;
  entries(write: EntriesWrite, record?: StepRecord): Promise<EntriesWriteResult>;
  finish(write: FinishWrite, record?: StepRecord): Promise<FinishWriteResult>;
  blogTerms(write: BlogTermsWrite, record?: StepRecord): Promise<BlogTermsWriteResult>;
  blogAuthors(write: BlogAuthorsWrite, record?: StepRecord): Promise<BlogAuthorsWriteResult>;
  blogPosts(write: BlogPostsWrite, record?: StepRecord): Promise<BlogPostsWriteResult>;
}

/** Unwinds a run that a pause stopped after its batch (already recorded as paused). */
export class Paused extends Error {}

export interface MigrationStepsDeps {
  cms: Cms;
  migrationId: string;
  runnerId: string;
  projectSlug: string;
  signal: AbortSignal;
  /** The runner's own counters (source requests, warnings), sent with every step. */
  stats: Record<string, number>;
  /** Told the stats as stored after each step. */
  onStored(stats: Record<string, number>): void;
}

/**
 * Lets timers and I/O run before the next batch. PGlite answers through microtasks only, so
 * without this a run of batches would keep the event loop (and a server's requests) waiting.
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => { setTimeout(resolve, 0); });

export function createMigrationSteps(deps: MigrationStepsDeps): MigrationSteps {
  const { cms, stats } = deps;
  const actor: Actor = { kind: 'system', job: 'migration' };
  const options = { actor, project: deps.projectSlug };

  /** Sends one step: the runner's counters and identity go with every one. */
  async function send<R>(record: StepRecord, run: (input: StepRecord & { id: string; runnerId: string }) => Promise<StepOutput<R>>): Promise<R> {
    if (deps.signal.aborted) throw new Error('the runner is stopping');
    await yieldToEventLoop();
    const logs = record.logs ?? [];
    stats.warnings = (stats.warnings ?? 0) + logs.filter((l) => l.level === 'warning').length;
    const out = await run({ ...record, logs, stats: { ...stats }, id: deps.migrationId, runnerId: deps.runnerId });
    deps.onStored(out.stats);
    if (out.paused) throw new Paused();
    return out.result;
  }

  return {
    async record(record) { await send(record, (input) => cms.run(migrationStep, input, options)); },
    schema: (write, record = {}) => send(record, (input) => cms.run(migrationSchemaStep, { ...input, write }, options)),
    media: (write, record = {}) => send(record, (input) => cms.run(migrationMediaStep, { ...input, write }, options)),
    entries: (write, record = {}) => send(record, (input) => cms.run(migrationEntriesStep, { ...input, write }, options)),
    finish: (write, record = {}) => send(record, (input) => cms.run(migrationFinishStep, { ...input, write }, options)),
    blogTerms: (write, record = {}) => send(record, (input) => cms.run(migrationBlogTermsStep, { ...input, write }, options)),
    blogAuthors: (write, record = {}) => send(record, (input) => cms.run(migrationBlogAuthorsStep, { ...input, write }, options)),
    blogPosts: (write, record = {}) => send(record, (input) => cms.run(migrationBlogPostsStep, { ...input, write }, options)),
  };
}
