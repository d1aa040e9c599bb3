import type { Ctx } from '../context.js';
import { CmsError } from '../errors.js';

/**
 * Names one stored file: the project's slug and the content-addressed name (`<sha256>.<ext>`).
 * A store decides where that is (a folder on the disk, a key in a bucket); nobody else does.
 */
export interface MediaLocation {
  project: string;
  filename: string;
}

export interface ImageSize {
  width: number;
  height: number;
}

/** What a store knows about a stored file. */
export interface StoredFileStat {
  size: number;
  modifiedAt: Date;
}

/** Bytes `start` to `end` of a file, both included (as in an HTTP Range). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The port every reader and writer of media files goes through: media operations store and
 * remove files with it, the file URLs are served from it, and transforms read their source
 * through it. src/media/ implements it on the disk and the runtime hands it in as
 * `services.mediaFiles`; a store that is not a disk (a bucket) implements the same methods.
 */
export interface MediaFiles {
  /**
   * Stores the bytes at the location unless a complete file is already there. Files are named by
   * the SHA-256 of their bytes, so writing the same name twice writes the same bytes.
   */
  put(location: MediaLocation, bytes: Uint8Array): Promise<void>;
  /** The file's bytes (only `range` of them when given) as a stream; for a missing file, the stream fails. */
  open(location: MediaLocation, range?: ByteRange): Promise<ReadableStream<Uint8Array>>;
  /** Size and modification time of the file, or null when there is no such file. */
  stat(location: MediaLocation): Promise<StoredFileStat | null>;
  /** Removes the file; a file that is already gone is not an error. */
  remove(location: MediaLocation): Promise<void>;
  /** Width and height of an image (upright, after its EXIF orientation), or null when unreadable. */
  probeImage(bytes: Uint8Array): Promise<ImageSize | null>;
}

export function mediaFilesOf(ctx: Pick<Ctx, 'services'>): MediaFiles {
  const files: MediaFiles | undefined = ctx.services.mediaFiles;
  if (!files) throw new CmsError('INTERNAL', 'Media storage is not configured (services.mediaFiles)');
  return files;
}

export const locationOf = (ctx: Pick<Ctx, 'project'>, filename: string): MediaLocation => ({
  project: ctx.project.slug,
  filename,
});
