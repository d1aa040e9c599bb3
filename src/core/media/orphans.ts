import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { media, projects } from '../../db/schema/index.js';
import { defineOperation } from '../operation.js';
import { queryBool } from './schemas.js';
import { lockContentOf } from './upload.js';

export interface OrphanReport {
  store: string;
  /** Files in the store that no media row names (their project's, or a project that no longer exists). */
  orphans: Array<{ project: string; filename: string; size: number }>;
  /** How many of them were removed (with `delete`). */
  removed: number;
}

/**
 * `cms media orphans [--delete]`: the cleanup that finds stored files without a media row (a
 * commit that failed after its file was written, a project deleted while its files stayed). It
 * lists the store (`MediaStore.list`) and compares with the rows; with `delete`, each orphan is
 * removed under the same content lock uploads and deletes take, after checking again that no row
 * names it, so an upload of the same bytes under way keeps its file.
 */
export const findOrphans = defineOperation({
  name: 'media.orphans',
  input: z.strictObject({ delete: queryBool.optional() }),
  // The terminal only: it reads every project's files.
  access: { role: null },
  global: true,
  write: false,
  async run(ctx, input): Promise<OrphanReport> {
    const store = ctx.services.mediaFiles;
    const report: OrphanReport = { store: store.description, orphans: [], removed: 0 };
    const projectIds = new Map((await ctx.db.select({ id: projects.id, slug: projects.slug }).from(projects)).map((p) => [p.slug, p.id]));
    const named = new Set((await ctx.db.selectDistinct({ projectId: media.projectId, filename: media.filename }).from(media))
      .map((r) => `${r.projectId}/${r.filename}`));
    for await (const file of store.list()) {
      const projectId = projectIds.get(file.project);
      if (projectId && named.has(`${projectId}/${file.filename}`)) continue;
      report.orphans.push({ project: file.project, filename: file.filename, size: file.size });
      if (!input.delete) continue;
      const sha256 = file.filename.slice(0, file.filename.indexOf('.'));
      const removed = await ctx.db.transaction(async (tx) => {
        if (projectId) {
          await lockContentOf(tx, projectId, sha256);
          const [row] = await tx.select({ id: media.id }).from(media).where(and(eq(media.projectId, projectId), eq(media.filename, file.filename))).limit(1);
          if (row) return false;
        }
        await store.remove({ project: file.project, filename: file.filename });
        return true;
      });
      if (removed) report.removed += 1;
    }
    return report;
  },
});
