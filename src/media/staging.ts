import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CmsError } from '../core/errors.js';
import { StagedUpload, stagedHeadBytes } from '../core/media/staged.js';

/** Where uploads are spooled while they stream in: `<dataDir>/tmp/uploads` (owner only). */
export const uploadTempDir = (dataDir: string): string => join(dataDir, 'tmp', 'uploads');

export const uploadTooLarge = (maxBytes: number): CmsError =>
  new CmsError('PAYLOAD_TOO_LARGE', `The upload is over the limit of ${maxBytes} bytes`, { maxUploadBytes: maxBytes });

/**
 * Whether a stream of bytes is valid UTF-8 without control characters (tab, line feed, form feed
 * and carriage return allowed), checked chunk by chunk as it flows: the same rule as the type
 * sniffer's for a whole file.
 */
class TextCheck {
  private decoder = new TextDecoder('utf-8', { fatal: true });
  text = true;
  push(chunk: Uint8Array, last = false): void {
    if (!this.text) return;
    try {
      const part = this.decoder.decode(chunk, { stream: !last });
      // eslint-disable-next-line no-control-regex
      if (/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(part)) this.text = false;
    } catch {
      this.text = false;
    }
  }
}

// Temporary files older than this were left by a process that died mid-upload: no upload runs that long.
const staleAfterMs = 24 * 60 * 60 * 1000;
const swept = new Set<string>();

/** Once per folder and process: removes temporary upload files a crashed process left behind. */
async function sweepStale(dir: string): Promise<void> {
  if (swept.has(dir)) return;
  swept.add(dir);
  const names = await readdir(dir).catch((): string[] => []);
  const now = Date.now();
  for (const name of names) {
    if (!name.endsWith('.upload')) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (info?.isFile() && now - info.mtimeMs > staleAfterMs) await rm(path, { force: true }).catch(() => {});
  }
}

/**
 * Spools a stream of bytes to a temporary file in `dir` while taking its SHA-256, size, first
 * bytes and whether it is text. Past `maxBytes` it stops at once with 413 PAYLOAD_TOO_LARGE; on
 * any failure (the limit, the client going away, a full disk) the temporary file is removed. The
 * caller removes the file of a staged upload once it has been stored (`removeStaged`).
 */
export async function stageStream(source: AsyncIterable<Uint8Array>, dir: string, maxBytes: number): Promise<StagedUpload> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // In the background: an upload does not wait for it.
  void sweepStale(dir).catch(() => {});
  const path = join(dir, `${Date.now()}-${randomBytes(8).toString('hex')}.upload`);
  const out = createWriteStream(path, { mode: 0o600 });
  const closed = new Promise<void>((resolve, reject) => {
    out.once('close', resolve);
    out.once('error', reject);
  });
  // A write error is seen through `closed`; nothing may go unhandled meanwhile.
  closed.catch(() => {});
  const hash = createHash('sha256');
  const text = new TextCheck();
  const head: Uint8Array[] = [];
  let headLength = 0;
  let size = 0;
  try {
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (size > maxBytes) throw uploadTooLarge(maxBytes);
      hash.update(chunk);
      text.push(chunk);
      if (headLength < stagedHeadBytes) {
        const part = chunk.subarray(0, stagedHeadBytes - headLength);
        head.push(Uint8Array.from(part));
        headLength += part.byteLength;
      }
      if (!out.write(chunk)) {
        await new Promise<void>((resolve, reject) => {
          const done = () => { out.off('error', fail); resolve(); };
          const fail = (e: Error) => { out.off('drain', done); reject(e); };
          out.once('drain', done);
          out.once('error', fail);
        });
      }
    }
    text.push(new Uint8Array(0), true);
    out.end();
    await closed;
  } catch (e) {
    out.destroy();
    await closed.catch(() => {});
    await rm(path, { force: true });
    throw e;
  }
  return new StagedUpload(path, size, hash.digest('hex'), Buffer.concat(head), text.text);
}

/** Removes the temporary files of staged uploads (a file already gone is not an error). */
export async function removeStaged(staged: Iterable<StagedUpload>): Promise<void> {
  await Promise.all([...staged].map((s) => rm(s.path, { force: true })));
}
