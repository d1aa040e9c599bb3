import { and, count, desc, eq, ilike, isNull, like, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { media } from '../../db/schema/index.js';
import { defineOperation } from '../operation.js';
import { limitParam, pageParam, paginationOf } from './schemas.js';
import { toMediaView } from './view.js';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export const listMedia = defineOperation({
  name: 'media.list',
  input: z.strictObject({
    page: pageParam,
    limit: limitParam,
    /** A folder name; an empty string lists the files in no folder. */
    folder: z.string().max(100).optional(),
    /** Part of the original file name, any case. */
    search: z.string().max(200).optional(),
    /** A MIME type (`image/png`) or its top-level part (`image`). */
    type: z.string().regex(/^[a-z0-9.+-]+(\/[a-z0-9.+-]+)?$/, 'must be a MIME type like image/png or image').optional(),
  }),
  access: { role: 'viewer' },
  write: false,
  inputError: 'INVALID_QUERY',
  async run(ctx, input) {
    const where: SQL[] = [eq(media.projectId, ctx.project.id), isNull(media.deletedAt)];
    if (input.folder !== undefined) where.push(input.folder === '' ? isNull(media.folder) : eq(media.folder, input.folder));
    if (input.search) where.push(ilike(media.originalFilename, `%${escapeLike(input.search)}%`));
    if (input.type) where.push(input.type.includes('/') ? eq(media.mimeType, input.type) : like(media.mimeType, `${escapeLike(input.type)}/%`));
    const condition = and(...where);
    const [total] = await ctx.db.select({ n: count() }).from(media).where(condition);
    const rows = await ctx.db.select().from(media).where(condition)
      .orderBy(desc(media.createdAt), desc(media.id))
      .limit(input.limit).offset((input.page - 1) * input.limit);
    return { data: rows.map((r) => toMediaView(ctx, r)), pagination: paginationOf(total?.n ?? 0, input.page, input.limit) };
  },
});
