import type { Ctx } from '../context.js';
import { CmsError } from '../errors.js';
import type { StagedUpload } from './staged.js';

/**
 * Names one stored file: the project's slug and the content-addressed name (`<sha256>.<ext>`).
 * A store decides where that is (a folder on the disk, a key in a bucket); nobody else does.
 */
export interface MediaLocation {
  project: string;
  filename: string;
  /**
   * A rendered variant of the file (a transform: `<key>.<format>`, like `200x100-cover-qd.webp`),
   * kept beside the original in the same store; absent for the original itself.
   */
  variant?: string;
}

/** A variant's name: letters, digits, `x`, `-` and one extension; nothing that could leave its place. */
export const variantPattern = /^[a-z0-9-]{1,80}\.[a-z0-9]{1,5}$/;

/** Bytes to write: the whole of them, or a stream read as the store pulls (large files, never held whole). */
export type WriteBody = Uint8Array | ReadableStream<Uint8Array>;

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
 * What the media operations need of a store: store and remove files, read them back, probe an
 * image. src/media/ implements it for the disk and for S3-compatible buckets (as a `MediaStore`,
 * below) and the runtime hands it in as `services.mediaFiles`.
 */
export interface MediaFiles {
  /**
   * Stores the bytes at the location unless a complete file is already there. Files are named by
   * the SHA-256 of their bytes, so writing the same name twice writes the same bytes. A staged
   * upload is read from its temporary file as it is written (never held whole).
   */
  put(location: MediaLocation, bytes: Uint8Array | StagedUpload): Promise<void>;
  /** The file's bytes (only `range` of them when given) as a stream; for a missing file, the stream fails. */
  open(location: MediaLocation, range?: ByteRange): Promise<ReadableStream<Uint8Array>>;
  /** Size and modification time of the file, or null when there is no such file. */
  stat(location: MediaLocation): Promise<StoredFileStat | null>;
  /** Removes the file; a file that is already gone is not an error. */
  remove(location: MediaLocation): Promise<void>;
  /** Width and height of an image (upright, after its EXIF orientation), or null when unreadable. */
  probeImage(bytes: Uint8Array | StagedUpload): Promise<ImageSize | null>;
}

/**
 * The whole storage port (docs/architecture.md): the media operations' part plus what the file
 * door, the transform cache, `/readyz` and `cms media migrate-storage` need. The local data folder
 * (`src/media/files.ts`) and S3-compatible buckets (`src/media/s3.ts`) implement it.
 */
export interface MediaStore extends MediaFiles {
  /** What the store is, for messages: `local:/srv/cms/.cms/media` or `s3://bucket/prefix/`. */
  readonly description: string;
  /**
   * Writes the bytes (a stream is read as it arrives: a multipart upload to a bucket, a temporary
   * file on the disk) and makes them visible at the location only once complete; a failed write
   * leaves nothing behind. Unlike `put`, an existing file is replaced.
   */
  write(location: MediaLocation, body: WriteBody, opts?: { contentType?: string }): Promise<void>;
  /**
   * Every original stored file (no variants), for copying a store and for finding files no media
   * row names; `project` limits it to one project's files.
   */
  list(project?: string): AsyncIterable<MediaLocation & { size: number }>;
  /** Throws with a readable reason when the store cannot be reached or written (`/readyz`). */
  check(): Promise<void>;
  /**
   * A short-lived URL that hands the file out without this server (a bucket's signed URL); null
   * for stores that have none (the disk).
   */
  signedUrl(location: MediaLocation, opts: { expiresInSeconds: number; contentType: string }): Promise<string | null>;
}

export const storageDrivers = ['local', 's3'] as const;
export type StorageDriver = (typeof storageDrivers)[number];

/** The configured stores: the one in use and, for `cms media migrate-storage`, the other one. */
export interface MediaStores {
  /** The driver of `services.mediaFiles`. */
  readonly driver: StorageDriver;
  /** The store of `driver` with the configured settings (the one in use for its own driver). */
  open(driver: StorageDriver): Promise<MediaStore>;
}

export function mediaFilesOf(ctx: Pick<Ctx, 'services'>): MediaStore {
  const files: MediaStore | undefined = ctx.services.mediaFiles;
  if (!files) throw new CmsError('INTERNAL', 'Media storage is not configured (services.mediaFiles)');
  return files;
}

export const locationOf = (ctx: Pick<Ctx, 'project'>, filename: string): MediaLocation => ({
  project: ctx.project.slug,
  filename,
});
