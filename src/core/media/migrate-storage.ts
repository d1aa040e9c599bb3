import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { media, projects } from '../../db/schema/index.js';
import { CmsError } from '../errors.js';
import { defineOperation } from '../operation.js';
import { storageDrivers, type MediaLocation, type MediaStore } from './storage.js';

/** What one run did, file by file counted once (files are shared by every row with the same bytes). */
export interface MigrateStorageReport {
  from: string;
  to: string;
  /** Files named by media rows. */
  files: number;
  /** Copied now and verified by their SHA-256 as read back from the target. */
  copied: number;
  /** Already in the target with the right SHA-256 (an earlier, interrupted run copied them). */
  skipped: number;
  /** Named by a media row but not in the source store: nothing to copy. */
  missing: Array<{ project: string; filename: string }>;
  /** Could not be copied or did not verify: the run should be repeated. */
  failed: Array<{ project: string; filename: string; reason: string }>;
  bytesCopied: number;
}

const hashOf = async (stream: ReadableStream<Uint8Array>): Promise<{ sha256: string; size: number }> => {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk);
    size += chunk.byteLength;
  }
  return { sha256: hash.digest('hex'), size };
};

/** The SHA-256 of a file in a store, or null when it is not there (or cannot be read). */
async function storedHash(store: MediaStore, location: MediaLocation): Promise<string | null> {
  try {
    if (!(await store.stat(location))) return null;
    return (await hashOf(await store.open(location))).sha256;
  } catch {
    return null;
  }
}

const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * `cms media migrate-storage --to s3|local`: copies the file of every media row, in every project,
 * from the store in use to the other configured one, streaming (a large file is never held whole),
 * and verifies each copy by reading it back and comparing its SHA-256 with the row's. Files already
 * in the target with the right SHA-256 are skipped, so a run that was interrupted is resumed by
 * running it again. It switches nothing: the configuration names the store in use.
 */
export const migrateStorage = defineOperation({
  name: 'media.migrateStorage',
  input: z.strictObject({ to: z.enum(storageDrivers) }),
  // The terminal only: it reads every project's media.
  access: { role: null },
  global: true,
  // No row is written; each copy is a network call, never inside a transaction.
  write: false,
  async run(ctx, input): Promise<MigrateStorageReport> {
    const stores = ctx.services.mediaStores;
    if (input.to === stores.driver) {
      throw new CmsError('VALIDATION_FAILED', `Media files are already kept in ${input.to} storage; --to names the store to copy them into (${storageDrivers.filter((d) => d !== input.to).join(', ')})`,
        [{ path: 'to', message: `already the store in use` }]);
    }
    const source = ctx.services.mediaFiles;
    const target = await stores.open(input.to);
    try {
      await target.check();
    } catch (e) {
      throw new CmsError('SERVER_BUSY', `The target store ${target.description} cannot be reached: ${reasonOf(e)}`);
    }
    const rows = await ctx.db.selectDistinct({ project: projects.slug, filename: media.filename, sha256: media.sha256, mimeType: media.mimeType })
      .from(media).innerJoin(projects, eq(projects.id, media.projectId)).orderBy(projects.slug, media.filename);
    const report: MigrateStorageReport = {
      from: source.description, to: target.description, files: 0, copied: 0, skipped: 0, missing: [], failed: [], bytesCopied: 0,
    };
    const seen = new Set<string>();
    for (const row of rows) {
      const id = `${row.project}/${row.filename}`;
      if (seen.has(id)) continue;
      seen.add(id);
      report.files += 1;
      const location: MediaLocation = { project: row.project, filename: row.filename };
      if ((await storedHash(target, location)) === row.sha256) {
        report.skipped += 1;
        continue;
      }
      if (!(await source.stat(location))) {
        report.missing.push({ project: row.project, filename: row.filename });
        continue;
      }
      try {
        // Hashed as it streams through, so a source that changed under its name is caught too.
        const hash = createHash('sha256');
        let size = 0;
        const counted = (await source.open(location)).pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            hash.update(chunk);
            size += chunk.byteLength;
            controller.enqueue(chunk);
          },
        }));
        await target.write(location, counted, { contentType: row.mimeType });
        const read = hash.digest('hex');
        if (read !== row.sha256) throw new Error(`the source file's SHA-256 is ${read}, not ${row.sha256}`);
        const copied = await storedHash(target, location);
        if (copied !== row.sha256) throw new Error(`the copy does not verify (SHA-256 ${copied ?? 'unreadable'})`);
        report.copied += 1;
        report.bytesCopied += size;
      } catch (e) {
        report.failed.push({ project: row.project, filename: row.filename, reason: reasonOf(e) });
      }
    }
    ctx.log.info('media storage copied', { ...report, missing: report.missing.length, failed: report.failed.length });
    return report;
  },
});
