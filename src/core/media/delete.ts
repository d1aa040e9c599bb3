import { and, count, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { media } from '../../db/schema/index.js';
import { CmsError } from '../errors.js';
import { defineOperation } from '../operation.js';
import { findMedia } from './find.js';
import { findMediaReferrers } from './references.js';
import { queryBool } from './schemas.js';
import { locationOf, mediaFilesOf } from './storage.js';
import { lockContent } from './upload.js';
import { holdForDelete } from '../reference-locks.js';

/**
 * Deletes a media item. Content that still names it blocks the delete (409 HAS_REFERENCES)
 * unless `force`; forced, those references stop resolving (featured images become null). The
 * stored file goes when no other media row of the project shares its bytes.
 */
export const deleteMedia = defineOperation({
  name: 'media.delete',
  input: z.strictObject({ id: z.string().min(1).max(100), force: queryBool.optional() }),
  access: { role: 'editor' },
  write: true,
  async run(ctx, input) {
    const row = await findMedia(ctx, input.id, { lock: true });
    if (!input.force) {
      await holdForDelete(ctx.db, row.id);
      const referrers = await findMediaReferrers(ctx.db, ctx.project.id, row.id);
      if (referrers.length > 0) {
        throw new CmsError('HAS_REFERENCES',
          `Media ${row.id} is used by ${referrers.length === 1 ? '1 entry' : `${referrers.length} entries`}; remove those uses or delete with force=true`,
          { referrers });
      }
    }
    await lockContent(ctx, row.sha256);
    await ctx.db.delete(media).where(eq(media.id, row.id));
    const [others] = await ctx.db.select({ n: count() }).from(media)
      .where(and(eq(media.projectId, ctx.project.id), eq(media.filename, row.filename), isNull(media.deletedAt)));
    if ((others?.n ?? 0) === 0) {
      // Last step of the transaction, under the content lock, so no upload of the same bytes can
      // slip in between. Should the commit itself fail after this, the row survives without its
      // file; uploading the same bytes again restores it.
      await mediaFilesOf(ctx).remove(locationOf(ctx, row.filename));
    }
    const deleted = { id: row.id, filename: row.filename, originalFilename: row.originalFilename };
    await ctx.emit('media.deleted', deleted);
    ctx.contentChanged();
    return deleted;
  },
});
