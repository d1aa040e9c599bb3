import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageSize, MediaFiles, MediaLocation } from '../core/media/storage.js';
import { isSlug } from '../lib/slug.js';

const filePattern = /^[0-9a-f]{64}\.[a-z0-9]{1,5}$/;

/**
 * The path of a stored file. Project slugs and content-addressed names are checked again here,
 * so no caller can make a path leave `<root>/<project>/`.
 */
export function mediaFilePath(location: MediaLocation): string {
  if (!isSlug(location.project) || !filePattern.test(location.filename)) {
    throw new Error(`Not a stored media location: ${location.project}/${location.filename}`);
  }
  return join(location.root, location.project, location.filename);
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}

/** Width and height as displayed: EXIF orientations 5–8 swap them. */
export async function probeImage(bytes: Uint8Array): Promise<ImageSize | null> {
  const { default: sharp } = await import('sharp');
  try {
    const meta = await sharp(bytes).metadata();
    const width = meta.autoOrient?.width ?? meta.width;
    const height = meta.autoOrient?.height ?? meta.height;
    return width && height ? { width, height } : null;
  } catch {
    return null;
  }
}

/** Media files on the local disk, one folder per project, named by content. */
export function createDiskMediaFiles(): MediaFiles {
  return {
    async put(location, bytes) {
      const path = mediaFilePath(location);
      // Same name, same bytes: a complete file already there is the file we would write.
      if ((await sizeOf(path)) === bytes.byteLength) return;
      // Owner only, like the rest of the data folder: the server reads them, nobody else needs to.
      await mkdir(join(location.root, location.project), { recursive: true, mode: 0o700 });
      const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(temp, bytes, { mode: 0o600 });
        await rename(temp, path);
      } catch (e) {
        await rm(temp, { force: true });
        throw e;
      }
    },
    async remove(location) {
      await rm(mediaFilePath(location), { force: true });
    },
    probeImage,
  };
}
