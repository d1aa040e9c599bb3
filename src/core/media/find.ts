import { and, eq, isNull } from 'drizzle-orm';
import { media } from '../../db/schema/index.js';
import type { Ctx } from '../context.js';
import { CmsError } from '../errors.js';
import { isUuid, type MediaRow } from './resolve.js';

/** A live media row of this project, or 404 (also for ids that are not UUIDs). */
export async function findMedia(ctx: Pick<Ctx, 'db' | 'project'>, id: string, options: { lock?: boolean } = {}): Promise<MediaRow> {
  if (!isUuid(id)) throw new CmsError('NOT_FOUND', `Media ${id} not found`);
  const query = ctx.db.select().from(media)
    .where(and(eq(media.projectId, ctx.project.id), eq(media.id, id.toLowerCase()), isNull(media.deletedAt)));
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row) throw new CmsError('NOT_FOUND', `Media ${id} not found`);
  return row;
}
