import { and, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { media, mediaFolders } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { Ctx } from '../context.js';
import { CmsError } from '../errors.js';
import { defineOperation } from '../operation.js';
import { altText, folderName, originalFilename } from './schemas.js';
import { measurableTypes, rasterImageTypes, sniffMediaType } from './sniff.js';
import { StagedUpload } from './staged.js';
import { locationOf, mediaFilesOf } from './storage.js';
import { toMediaView, type MediaView } from './view.js';

/**
 * One file to store. `data` is base64 (so the input survives JSON, e.g. when the CLI forwards it
 * to a running server) or, for callers in this process, the bytes themselves or a staged upload
 * (a temporary file measured as it streamed in: how the HTTP doors hand in large files).
 */
export const uploadFile = z.strictObject({
  data: z.union([z.string(), z.instanceof(Uint8Array), z.instanceof(StagedUpload)]),
  filename: originalFilename,
  altText: altText.nullable().optional(),
  folder: folderName.nullable().optional(),
});
export type UploadFile = z.output<typeof uploadFile>;

const base64Pattern = /^[A-Za-z0-9+/]*={0,2}$/;

const tooLarge = (size: number, max: number) =>
  new CmsError('PAYLOAD_TOO_LARGE', `The file is ${size} bytes; uploads are limited to ${max} bytes`, { size, maxUploadBytes: max });

/** The bytes of an upload, refused before decoding when they would be over the limit. */
export function decodeUpload(data: string | Uint8Array, maxBytes: number, path = 'data'): Uint8Array {
  if (typeof data !== 'string') {
    if (data.byteLength > maxBytes) throw tooLarge(data.byteLength, maxBytes);
    return data;
  }
  const text = data.replace(/\s+/g, '');
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const size = Math.floor((text.length * 3) / 4) - padding;
  if (size > maxBytes) throw tooLarge(size, maxBytes);
  if (text.length % 4 !== 0 || !base64Pattern.test(text)) {
    throw new CmsError('VALIDATION_FAILED', `Invalid input: ${path}: must be base64`, [{ path, message: 'must be base64' }]);
  }
  return Buffer.from(text, 'base64');
}

/** Serialises writers of the same bytes in a project, so a delete never removes a file an upload is about to use. */
export async function lockContent(ctx: Pick<Ctx, 'db' | 'project'>, sha256: string): Promise<void> {
  await lockContentOf(ctx.db, ctx.project.id, sha256);
}

/** The same lock for a project named by id (the cleanup of orphans runs on no one project). */
export async function lockContentOf(db: Ctx['db'], projectId: string, sha256: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`media:${projectId}:${sha256}`}, 0))`);
}

export async function ensureFolder(ctx: Pick<Ctx, 'db' | 'project' | 'clock'>, folder: string | null | undefined): Promise<void> {
  if (!folder) return;
  // An existing folder is locked (DO UPDATE locks the row; DO NOTHING would not) until the write
  // commits: a rename of it waits for the file to land and moves it too, and a rename that came
  // first is waited for, after which the folder is made anew. Without the lock a file could land in
  // a folder renamed meanwhile, which no folder list showed.
  await ctx.db.insert(mediaFolders).values({ projectId: ctx.project.id, name: folder, createdAt: ctx.clock.now() })
    .onConflictDoUpdate({ target: [mediaFolders.projectId, mediaFolders.name], set: { name: sql`excluded.name` } });
}

/**
 * Stores one upload: the type comes from the bytes, the file is written once per project under
 * its SHA-256, and every upload gets its own media row (its own id, name, alt text and folder),
 * also when its bytes are already stored.
 */
export async function storeUpload(ctx: Ctx, file: UploadFile, path = 'data'): Promise<MediaView & { deduplicated?: true }> {
  const max = ctx.settings.maxUploadBytes;
  const data = file.data;
  if (data instanceof StagedUpload && data.size > max) throw tooLarge(data.size, max);
  const body = data instanceof StagedUpload ? data : decodeUpload(data, max, path);
  const byteLength = body instanceof StagedUpload ? body.size : body.byteLength;
  if (byteLength === 0) {
    throw new CmsError('VALIDATION_FAILED', `Invalid input: ${path}: the file is empty`, [{ path, message: 'the file is empty' }]);
  }
  const type = body instanceof StagedUpload ? sniffMediaType(body.head, body.text) : sniffMediaType(body);
  const files = mediaFilesOf(ctx);
  const size = measurableTypes.has(type.mimeType) ? await files.probeImage(body) : null;
  if (!size && rasterImageTypes.has(type.mimeType)) {
    throw new CmsError('VALIDATION_FAILED', `Invalid input: ${path}: the file starts like ${type.mimeType} but is not a readable image`, [
      { path, message: `not a readable ${type.mimeType} image` },
    ]);
  }
  const sha256 = body instanceof StagedUpload ? body.sha256 : sha256Hex(body);
  const filename = `${sha256}.${type.ext}`;
  await lockContent(ctx, sha256);
  // Whether a live item of the project already holds these bytes: the answer says so
  // (`deduplicated: true`), so an admin UI can show "already in the library".
  const [prior] = await ctx.db.select({ id: media.id }).from(media)
    .where(and(eq(media.projectId, ctx.project.id), eq(media.sha256, sha256), isNull(media.deletedAt))).limit(1);
  // Written before the row commits: if the transaction rolls back, the file stays without a row,
  // which is harmless because the same bytes always land on the same name.
  try {
    await files.put(locationOf(ctx, filename), body);
  } catch (e) {
    // The store failed (a bucket that does not answer, a full disk): the error rolls the
    // transaction back, so no row is left without its file; a store leaves no half-written file.
    ctx.log.error('media store write failed', { filename, error: e instanceof Error ? e.message : String(e) });
    throw new CmsError('SERVER_BUSY', 'The media store could not be written, so nothing was stored; try the upload again later');
  }
  await ensureFolder(ctx, file.folder);
  const now = ctx.clock.now();
  const [row] = await ctx.db.insert(media).values({
    projectId: ctx.project.id,
    filename,
    originalFilename: file.filename,
    mimeType: type.mimeType,
    size: byteLength,
    sha256,
    width: size?.width ?? null,
    height: size?.height ?? null,
    altText: file.altText || null,
    folder: file.folder ?? null,
    createdAt: now,
    updatedAt: now,
  }).returning();
  const view = toMediaView(ctx, row!);
  await ctx.emit('media.uploaded', view);
  return prior ? { ...view, deduplicated: true } : view;
}

export const uploadMedia = defineOperation({
  name: 'media.upload',
  input: uploadFile,
  access: { role: 'editor', key: 'media:write' },
  write: true,
  run: (ctx, input) => storeUpload(ctx, input),
});

export const bulkUploadMedia = defineOperation({
  name: 'media.bulkUpload',
  input: z.strictObject({ files: z.array(uploadFile).min(1).max(100) }),
  access: { role: 'editor', key: 'media:write' },
  write: true,
  async run(ctx, input) {
    const out: (MediaView & { deduplicated?: true })[] = [];
    for (const [i, file] of input.files.entries()) out.push(await storeUpload(ctx, file, `files[${i}].data`));
    return out;
  },
});
