import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { media } from '../../db/schema/index.js';
import { defineOperation } from '../operation.js';
import { findMedia } from './find.js';
import { altText, originalFilename } from './schemas.js';
import { toMediaView } from './view.js';

/**
 * Alt text and the display file name. The stored file keeps its content-addressed name. No event
 * (the contract has none for metadata updates), but delivered content shows the new values.
 */
export const updateMedia = defineOperation({
  name: 'media.update',
  input: z.strictObject({
    id: z.string().min(1).max(100),
    altText: altText.nullable().optional(),
    filename: originalFilename.optional(),
  }),
  access: { role: 'editor' },
  write: true,
  async run(ctx, input) {
    const row = await findMedia(ctx, input.id, { lock: true });
    const set: Partial<typeof media.$inferInsert> = { updatedAt: ctx.clock.now() };
    if (input.altText !== undefined) set.altText = input.altText || null;
    if (input.filename !== undefined) set.originalFilename = input.filename;
    const [updated] = await ctx.db.update(media).set(set).where(eq(media.id, row.id)).returning();
    ctx.contentChanged();
    return toMediaView(ctx, updated!);
  },
});
