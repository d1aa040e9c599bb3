import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { isUniqueViolation } from '../../db/client.js';
import { media, mediaFolders } from '../../db/schema/index.js';
import { CmsError } from '../errors.js';
import { defineOperation } from '../operation.js';
import { findMedia } from './find.js';
import { folderName } from './schemas.js';
import { ensureFolder } from './upload.js';
import { toMediaView } from './view.js';

/** Moves one file into a folder (or out of every folder with null). No event. */
export const moveMedia = defineOperation({
  name: 'media.move',
  input: z.strictObject({ id: z.string().min(1).max(100), folder: folderName.nullable() }),
  access: { role: 'editor' },
  write: true,
  async run(ctx, input) {
    const row = await findMedia(ctx, input.id, { lock: true });
    await ensureFolder(ctx, input.folder);
    const [updated] = await ctx.db.update(media).set({ folder: input.folder, updatedAt: ctx.clock.now() })
      .where(eq(media.id, row.id)).returning();
    return toMediaView(ctx, updated!);
  },
});

/** Folders with the number of files in each, by name. */
export const listMediaFolders = defineOperation({
  name: 'media.folders',
  input: z.strictObject({}),
  access: { role: 'viewer' },
  write: false,
  async run(ctx) {
    const rows = await ctx.db.select({ name: mediaFolders.name, count: count(media.id) })
      .from(mediaFolders)
      .leftJoin(media, and(eq(media.projectId, mediaFolders.projectId), eq(media.folder, mediaFolders.name), isNull(media.deletedAt)))
      .where(eq(mediaFolders.projectId, ctx.project.id))
      .groupBy(mediaFolders.name)
      .orderBy(asc(mediaFolders.name));
    return rows.map((r) => ({ name: r.name, count: Number(r.count) }));
  },
});

/** Renames a folder and moves its files with it. Renaming onto an existing folder is refused. No event. */
export const renameMediaFolder = defineOperation({
  name: 'media.renameFolder',
  input: z.strictObject({ name: folderName, to: folderName }),
  access: { role: 'editor' },
  write: true,
  async run(ctx, input) {
    const [folder] = await ctx.db.select().from(mediaFolders)
      .where(and(eq(mediaFolders.projectId, ctx.project.id), eq(mediaFolders.name, input.name))).for('update');
    if (input.to === input.name && folder) return { name: input.to, moved: 0 };
    const [taken] = await ctx.db.select({ id: mediaFolders.id }).from(mediaFolders)
      .where(and(eq(mediaFolders.projectId, ctx.project.id), eq(mediaFolders.name, input.to)));
    const folderTaken = () => new CmsError('VALIDATION_FAILED', `Invalid input: to: a folder named "${input.to}" already exists; move the files into it instead`, [
      { path: 'to', message: `a folder named "${input.to}" already exists` },
    ]);
    if (taken) throw folderTaken();
    const moved = await ctx.db.update(media).set({ folder: input.to, updatedAt: ctx.clock.now() })
      .where(and(eq(media.projectId, ctx.project.id), eq(media.folder, input.name))).returning({ id: media.id });
    // Files may name a folder that has no row of its own (written by an older import); they count.
    if (!folder && moved.length === 0) throw new CmsError('NOT_FOUND', `Media folder "${input.name}" not found`);
    // Another rename onto the same name may have committed since the look above: the same refusal.
    if (folder) await ctx.db.update(mediaFolders).set({ name: input.to }).where(eq(mediaFolders.id, folder.id)).catch((e: unknown) => { throw isUniqueViolation(e) ? folderTaken() : e; });
    else await ensureFolder(ctx, input.to);
    return { name: input.to, moved: moved.length };
  },
});

