import { bigserial, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './common.js';
import { projects } from './projects.js';

/**
 * One row per call to the AI provider (docs/ai.md): who asked (a member, a key, the terminal),
 * for which feature, which model answered, the tokens the provider reported, how long it took
 * and how it ended (`ok`, or the error code).
 */
export const aiUsage = pgTable('ai_usage', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  /** `user`, `key`, `terminal` or `system`. */
  actorKind: text('actor_kind').notNull(),
  /** The member's user id or the key's id; null for the terminal and the server's jobs. */
  actorId: text('actor_id'),
  feature: text('feature').notNull(),
  provider: text('provider').notNull(),
  model: text('model').notNull(),
  inputTokens: integer('input_tokens'),
  outputTokens: integer('output_tokens'),
  durationMs: integer('duration_ms').notNull(),
  outcome: text('outcome').notNull(),
  createdAt: createdAt(),
}, (t) => [index('ai_usage_project_idx').on(t.projectId, t.createdAt)]);
