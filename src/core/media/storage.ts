import type { Ctx } from '../context.js';
import { CmsError } from '../errors.js';

/** Where one stored file lives: `<root>/<project>/<filename>`. */
export interface MediaLocation {
  root: string;
  project: string;
  filename: string;
}

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The port media operations reach files through; src/media/ implements it on the disk and the
 * runtime hands it in as `services.mediaFiles`.
 */
export interface MediaFiles {
  /**
   * Stores the bytes at the location unless a complete file is already there. Files are named by
   * the SHA-256 of their bytes, so writing the same name twice writes the same bytes.
   */
  put(location: MediaLocation, bytes: Uint8Array): Promise<void>;
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

export const locationOf = (ctx: Pick<Ctx, 'settings' | 'project'>, filename: string): MediaLocation => ({
  root: ctx.settings.mediaDir,
  project: ctx.project.slug,
  filename,
});
