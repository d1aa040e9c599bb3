import { randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, opendir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { storedFilenamePattern } from '../core/media/file.js';
import { StagedUpload } from '../core/media/staged.js';
import { variantPattern, type ByteRange, type ImageSize, type MediaLocation, type MediaStore, type StoredFileStat, type WriteBody } from '../core/media/storage.js';
import { isSlug } from '../lib/slug.js';

/**
 * The path of a stored file under `root`. Project slugs and content-addressed names are checked
 * again here, so no caller can make a path leave `<root>/<project>/`.
 */
function mediaFilePath(root: string, location: MediaLocation, cacheRoot?: string): string {
  checkLocation(location);
  if (location.variant !== undefined) {
    // Variants (rendered transforms) live where they always did: <dataDir>/cache/media/<project>/<sha256>/.
    const sha256 = location.filename.slice(0, location.filename.indexOf('.'));
    return join(cacheRoot ?? join(root, '.variants'), location.project, sha256, location.variant);
  }
  return join(root, location.project, location.filename);
}

/** Project slugs, content-addressed names and variant names are checked by every store before use. */
export function checkLocation(location: MediaLocation): void {
  if (!isSlug(location.project) || !storedFilenamePattern.test(location.filename)
    || (location.variant !== undefined && !variantPattern.test(location.variant))) {
    throw new Error(`Not a stored media location: ${location.project}/${location.filename}${location.variant ? `/${location.variant}` : ''}`);
  }
}

/** A body to write as a Node stream (a web stream is read as it arrives). */
export function nodeReadable(body: WriteBody): Readable {
  if (body instanceof Uint8Array) return Readable.from([body]);
  return Readable.fromWeb(body);
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

/** The bytes to put: a staged upload is read from its temporary file as the store pulls. */
export function putBody(bytes: Uint8Array | StagedUpload): WriteBody {
  return bytes instanceof StagedUpload ? readFileStream(bytes.path, undefined) : bytes;
}

export const byteLengthOf = (bytes: Uint8Array | StagedUpload): number => (bytes instanceof StagedUpload ? bytes.size : bytes.byteLength);

/**
 * Width and height as displayed: EXIF orientations 5–8 swap them. A staged upload is read by
 * sharp from its file (only as much of it as the header needs).
 */
export async function probeImage(bytes: Uint8Array | StagedUpload): Promise<ImageSize | null> {
  const { default: sharp } = await import('sharp');
  try {
    const meta = await sharp(bytes instanceof StagedUpload ? bytes.path : bytes).metadata();
    const width = meta.autoOrient?.width ?? meta.width;
    const height = meta.autoOrient?.height ?? meta.height;
    return width && height ? { width, height } : null;
  } catch {
    return null;
  }
}

/**
 * The media folder, or the nearest one above it that exists (the store makes the project folders
 * on first write), must be writable by this process.
 */
export async function writableFolder(folder: string): Promise<void> {
  let at = folder;
  for (;;) {
    const found = await stat(at).then((s) => s, () => null);
    if (found) {
      if (!found.isDirectory()) throw new Error(`${at} is not a folder`);
      await access(at, constants.W_OK | constants.X_OK).catch(() => { throw new Error(`the media folder ${at} is not writable`); });
      return;
    }
    const up = dirname(at);
    if (up === at) throw new Error(`no folder of ${folder} exists`);
    at = up;
  }
}

/** Writes a body to `path` through a temporary file beside it, so a reader never sees half a file. */
async function writeAtomically(path: string, body: WriteBody): Promise<void> {
  // Owner only, like the rest of the data folder: the server reads them, nobody else needs to.
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    if (body instanceof Uint8Array) await writeFile(temp, body, { mode: 0o600 });
    else await pipeline(nodeReadable(body), createWriteStream(temp, { mode: 0o600 }));
    await rename(temp, path);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

/**
 * Media files on the local disk under `root`, one folder per project, named by content; rendered
 * variants under `cacheRoot` (`<dataDir>/cache/media`), as before the storage port had a second store.
 */
export function createDiskMediaFiles(root: string, cacheRoot?: string): MediaStore {
  return {
    description: `local:${root}`,
    async put(location, bytes) {
      const path = mediaFilePath(root, location, cacheRoot);
      // Same name, same bytes: a complete file already there is the file we would write.
      if ((await statOf(path))?.size === byteLengthOf(bytes)) return;
      await writeAtomically(path, putBody(bytes));
    },
    write: (location, body) => writeAtomically(mediaFilePath(root, location, cacheRoot), body),
    open: async (location, range) => readFileStream(mediaFilePath(root, location, cacheRoot), range),
    stat: (location) => statOf(mediaFilePath(root, location, cacheRoot)),
    async remove(location) {
      await rm(mediaFilePath(root, location, cacheRoot), { force: true });
      // The file's rendered variants go with it.
      if (location.variant === undefined && cacheRoot) {
        await rm(join(cacheRoot, location.project, location.filename.slice(0, location.filename.indexOf('.'))), { recursive: true, force: true });
      }
    },
    async *list(project) {
      const projects: string[] = project !== undefined ? [project] : await readdir(root).catch(() => []);
      for (const slug of projects) {
        if (!isSlug(slug)) continue;
        const dir = await opendir(join(root, slug)).catch(() => null);
        if (!dir) continue;
        for await (const entry of dir) {
          if (!entry.isFile() || !storedFilenamePattern.test(entry.name)) continue;
          const found = await statOf(join(root, slug, entry.name));
          if (found) yield { project: slug, filename: entry.name, size: found.size };
        }
      }
    },
    check: () => writableFolder(root),
    signedUrl: async () => null,
    probeImage,
  };
}
