import { createWriteStream, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { createGzip, gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { CmsError } from '../core/errors.js';
import { sha256Hex } from '../lib/crypto.js';

/**
 * The project archive of `cms export` and `cms import` (docs/export-import.md): a gzip-compressed
 * POSIX tar with
 *   manifest.json            format, version, counts and the SHA-256 of every data file
 *   project.json             the project's locales and default locale
 *   data/<resource>.ndjson   one row per line, keys sorted, in id order
 *   media/<sha256>.<ext>     each stored media file once (its name is its checksum)
 * Written entry by entry through gzip to `<file>.partial`, renamed when complete.
 */

export const manifestSchema = z.object({
  format: z.literal('cms-export'),
  version: z.number().int(),
  cmsVersion: z.string(),
  exportedAt: z.string(),
  project: z.object({ slug: z.string() }),
  versions: z.boolean(),
  resources: z.record(z.string(), z.object({ file: z.string(), count: z.number().int().min(0), sha256: z.string() })),
  projectFile: z.object({ file: z.literal('project.json'), sha256: z.string() }),
  media: z.object({ count: z.number().int().min(0), missing: z.array(z.string()) }),
});
export type Manifest = z.infer<typeof manifestSchema>;


function tarHeader(name: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  if (Buffer.byteLength(name) > 100) throw new CmsError('INTERNAL', `Archive entry name too long: ${name}`);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100, 'ascii');
  h.write('0000000\0', 108, 'ascii');
  h.write('0000000\0', 116, 'ascii');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  h.write(`${Math.floor(Date.now() / 1000).toString(8).padStart(11, '0')}\0`, 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

/** Writes tar entries through gzip to a file, one at a time. */
export async function writeArchive(file: string, entries: AsyncIterable<{ name: string; bytes: Uint8Array }> | Iterable<{ name: string; bytes: Uint8Array }>): Promise<number> {
  const partial = `${file}.partial`;
  mkdirSync(dirname(file), { recursive: true });
  const gzip = createGzip();
  const out = createWriteStream(partial, { mode: 0o600 });
  // A write error (a full disk, no permission) fails the writing below; unheard, it would end the
  // process. gzip is destroyed with it, so that no wait for its 'drain' lasts for ever.
  let failure: Error | null = null;
  out.on('error', (e) => { failure ??= e; gzip.destroy(e); });
  gzip.on('error', (e) => { failure ??= e; });
  gzip.pipe(out);
  const write = async (chunk: Uint8Array) => {
    if (failure) throw failure;
    if (!gzip.write(chunk)) await once(gzip, 'drain');
  };
  try {
    for await (const e of entries) {
      await write(tarHeader(e.name, e.bytes.byteLength));
      await write(e.bytes);
      const pad = (512 - (e.bytes.byteLength % 512)) % 512;
      if (pad) await write(Buffer.alloc(pad));
    }
    await write(Buffer.alloc(1024));
    gzip.end();
    if (!out.closed) await once(out, 'close');
    if (failure) throw failure;
    renameSync(partial, file);
    return out.bytesWritten;
  } catch (e) {
    gzip.destroy();
    out.destroy();
    rmSync(partial, { force: true });
    throw e;
  }
}


const invalid = (message: string) => new CmsError('INVALID_ARCHIVE', message);

/** Every entry of a tar.gz file, by name; anything unreadable is INVALID_ARCHIVE. */
export function readArchiveEntries(file: string): Map<string, Buffer> {
  let raw: Buffer;
  try {
    raw = readFileSync(file);
  } catch (e) {
    throw new CmsError('NOT_FOUND', `Cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  let tar: Buffer;
  try {
    tar = gunzipSync(raw);
  } catch (e) {
    throw invalid(`${file} is not a cms export archive (gzip: ${e instanceof Error ? e.message : String(e)})`);
  }
  const entries = new Map<string, Buffer>();
  let at = 0;
  while (at + 512 <= tar.length) {
    const h = tar.subarray(at, at + 512);
    if (h.every((b) => b === 0)) return entries;
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
    const stored = parseInt(h.toString('ascii', 148, 156).replace(/\0.*$/, '').trim(), 8);
    if (stored !== sum) throw invalid(`${file} is damaged: a tar header's checksum does not match`);
    const name = h.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    const size = parseInt(h.toString('ascii', 124, 136).replace(/\0.*$/, '').trim(), 8);
    if (!Number.isFinite(size) || at + 512 + size > tar.length) throw invalid(`${file} is damaged: ${name} is cut short`);
    if (h.toString('ascii', 156, 157) === '0' || h[156] === 0) entries.set(name, tar.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  throw invalid(`${file} is damaged: the archive ends without its end marker`);
}

export interface ReadArchive {
  manifest: Manifest;
  project: unknown;
  resources: Record<string, unknown[]>;
  files: Array<{ filename: string; data: string }>;
}

/**
 * Reads and checks a whole archive: the manifest's format and version, every data file present
 * with its checksum, every line JSON. The media files' names are their checksums; the import
 * checks them.
 */
export function readArchive(file: string, supportedVersion: number): ReadArchive {
  const entries = readArchiveEntries(file);
  const manifestBytes = entries.get('manifest.json');
  if (!manifestBytes) throw invalid(`${file} has no manifest.json: not a cms export archive`);
  let manifestJson: unknown;
  try { manifestJson = JSON.parse(manifestBytes.toString('utf8')); } catch { throw invalid(`${file}: manifest.json is not JSON`); }
  const format = z.object({ format: z.literal('cms-export'), version: z.number() }).safeParse(manifestJson);
  if (!format.success) throw invalid(`${file} is not a cms export archive (manifest.json has no format "cms-export")`);
  if (format.data.version !== supportedVersion) {
    throw invalid(`${file} is a version ${format.data.version} archive; this cms reads version ${supportedVersion}. Use a cms of the version that wrote it, or export again.`);
  }
  const parsed = manifestSchema.safeParse(manifestJson);
  if (!parsed.success) throw invalid(`${file}: manifest.json is malformed (${parsed.error.issues.map((i) => i.path.join('.')).join(', ')})`);
  const manifest = parsed.data;
  const checked = (name: string, expected: string): Buffer => {
    const bytes = entries.get(name);
    if (!bytes) throw invalid(`${file} is missing ${name}`);
    if (sha256Hex(bytes) !== expected) throw invalid(`${file} is damaged: ${name} does not match its checksum in manifest.json`);
    return bytes;
  };
  const projectBytes = checked('project.json', manifest.projectFile.sha256);
  const resources: Record<string, unknown[]> = {};
  for (const [name, entry] of Object.entries(manifest.resources)) {
    const text = checked(entry.file, entry.sha256).toString('utf8');
    const rows = text.split('\n').filter((l) => l.length > 0).map((line, i) => {
      try { return JSON.parse(line); } catch { throw invalid(`${file}: ${entry.file} line ${i + 1} is not JSON`); }
    });
    if (rows.length !== entry.count) throw invalid(`${file}: ${entry.file} has ${rows.length} rows, manifest.json says ${entry.count}`);
    resources[name] = rows;
  }
  const files = [...entries].filter(([name]) => name.startsWith('media/')).map(([name, bytes]) => ({ filename: name.slice('media/'.length), data: bytes.toString('base64') }));
  if (files.length !== manifest.media.count) throw invalid(`${file} has ${files.length} media files, manifest.json says ${manifest.media.count}`);
  return { manifest, project: JSON.parse(projectBytes.toString('utf8')), resources, files };
}

export const archiveEntry = (name: string, content: string | Uint8Array) => ({ name, bytes: typeof content === 'string' ? Buffer.from(content, 'utf8') : content });
export const checksumOf = sha256Hex;
