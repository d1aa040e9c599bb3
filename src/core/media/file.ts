import { and, desc, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { media } from '../../db/schema/index.js';
import { CmsError } from '../errors.js';
import { defineOperation } from '../operation.js';
import { locationOf, type MediaLocation } from './storage.js';

/**
 * Stored names are `<sha256>.<ext>`; nothing else (no dots, slashes or other characters) can name a
 * file. The one copy of the rule: the store, the file URL route and this operation all check it.
 */
export const storedFilenamePattern = /^[0-9a-f]{64}\.[a-z0-9]{1,5}$/;

export interface MediaFileInfo {
  location: MediaLocation;
  mimeType: string;
  size: number;
  sha256: string;
  width: number | null;
  height: number | null;
}

/**
 * What the file door needs to serve `/api/v1/media/<project>/<file>`: the file must belong to a
 * live media item of that project. File URLs need no key, like a CDN's.
 */
export const mediaFile = defineOperation({
  name: 'media.file',
  input: z.strictObject({ filename: z.string().max(200) }),
  access: { role: 'viewer', key: 'read', preview: true, anonymous: true },
  write: false,
  async run(ctx, input): Promise<MediaFileInfo> {
    if (!storedFilenamePattern.test(input.filename)) throw new CmsError('NOT_FOUND', 'File not found');
    const [row] = await ctx.db.select().from(media)
      .where(and(eq(media.projectId, ctx.project.id), eq(media.filename, input.filename), isNull(media.deletedAt)))
      .orderBy(desc(media.createdAt)).limit(1);
    if (!row) throw new CmsError('NOT_FOUND', 'File not found');
    return {
      location: locationOf(ctx, row.filename),
      mimeType: row.mimeType,
      size: row.size,
      sha256: row.sha256,
      width: row.width,
      height: row.height,
    };
  },
});
