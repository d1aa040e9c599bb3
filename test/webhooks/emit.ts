import { z } from 'zod';
import { eventKinds } from '../../src/core/context.js';
import { CmsError } from '../../src/core/errors.js';
import { defineOperation } from '../../src/core/operation.js';
import { webhookDeliveries } from '../../src/db/schema/index.js';

/**
 * A test-only write that emits events the way content operations do (ctx.emit inside the
 * write's transaction), optionally failing afterwards so the transaction rolls back.
 */
export const emitEvents = defineOperation({
  name: 'test.emit',
  input: z.strictObject({
    kind: z.enum(eventKinds),
    count: z.number().int().min(1).default(1),
    data: z.unknown().optional(),
    fail: z.enum(['cms-error', 'db-error']).optional(),
  }),
  access: { role: 'editor' },
  write: true,
  async run(ctx, input) {
    for (let i = 0; i < input.count; i++) await ctx.emit(input.kind, input.data ?? { id: `item-${i}`, n: i });
    if (input.fail === 'cms-error') throw new CmsError('VALIDATION_FAILED', 'failing after the emit');
    // A constraint violation from the database itself (no such webhook).
    if (input.fail === 'db-error') {
      await ctx.db.insert(webhookDeliveries).values({ projectId: ctx.project.id, webhookId: '00000000-0000-4000-8000-00000000dead', event: 'x', payload: '{}' });
    }
    return { emitted: input.count };
  },
});
