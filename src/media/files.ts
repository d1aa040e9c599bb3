import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { storedFilenamePattern } from '../core/media/file.js';
import type { ByteRange, ImageSize, MediaFiles, MediaLocation, StoredFileStat } from '../core/media/storage.js';
import { isSlug } from '../lib/slug.js';

/**
 * The path of a stored file under `root`. Project slugs and content-addressed names are checked
 * again here, so no caller can make a path leave `<root>/<project>/`.
 */
function mediaFilePath(root: string, location: MediaLocation): string {
  if (!isSlug(location.project) || !storedFilenamePattern.test(location.filename)) {
    throw new Error(`Not a stored media location: ${location.project}/${location.filename}`);
  }
  return join(root, location.project, location.filename);
}

async function statOf(path: string): Promise<StoredFileStat | null> {
  try {
    const stats = await stat(path);
    return stats.isFile() ? { size: stats.size, modifiedAt: stats.mtime } : null;
  } catch {
    return null;
  }
}

/** A file (or the range of it) as a web stream, read as the consumer pulls. */
export function readFileStream(path: string, range: ByteRange | undefined): ReadableStream<Uint8Array> {
  const chunks = createReadStream(path, range ? { start: range.start, end: range.end } : {})[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return?.();
    },
  });
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

/** Media files on the local disk under `root`, one folder per project, named by content. */
export function createDiskMediaFiles(root: string): MediaFiles {
  return {
    async put(location, bytes) {
      const path = mediaFilePath(root, location);
      // Same name, same bytes: a complete file already there is the file we would write.
      if ((await statOf(path))?.size === bytes.byteLength) return;
      // Owner only, like the rest of the data folder: the server reads them, nobody else needs to.
      await mkdir(join(root, location.project), { recursive: true, mode: 0o700 });
      const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(temp, bytes, { mode: 0o600 });
        await rename(temp, path);
      } catch (e) {
        await rm(temp, { force: true });
        throw e;
      }
    },
    open: async (location, range) => readFileStream(mediaFilePath(root, location), range),
    stat: (location) => statOf(mediaFilePath(root, location)),
    async remove(location) {
      await rm(mediaFilePath(root, location), { force: true });
    },
    probeImage,
  };
}
