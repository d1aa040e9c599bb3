import busboy from 'busboy';
import { CmsError } from '../core/errors.js';
import type { StagedUpload } from '../core/media/staged.js';
import { removeStaged, stageStream, uploadTooLarge } from '../media/staging.js';

/** One entry of a multipart form, in the order of the body: a text field or a staged file. */
export type FormEntry =
  | { name: string; value: string; file?: undefined }
  | { name: string; file: { filename: string; staged: StagedUpload }; value?: undefined };

export interface StagedForm {
  entries: FormEntry[];
  /** The first text field of these names. */
  text(...names: string[]): string | undefined;
  /** The files of these fields, in the order of the body. */
  files(...names: string[]): { name: string; filename: string; staged: StagedUpload }[];
  /** Removes every staged file; call it once the operation has run, whatever its outcome. */
  cleanup(): Promise<void>;
}

export interface FormLimits {
  /** Largest file. */
  maxFileBytes: number;
  /** Largest body (framing, fields and all files). */
  maxBodyBytes: number;
  maxFiles: number;
  /** Where the files are spooled. */
  dir: string;
}

/** How long a refused body is still read (and dropped) before it is cancelled. */
const lingerMs = 10_000;

/** Reads and drops the rest of a refused body, at most `max` bytes; then cancels it. */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, max: number): Promise<void> {
  let dropped = 0;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return;
      dropped += next.value.byteLength;
      if (dropped > max) break;
    }
  } catch {
    return; // the client went away, or the linger timer cancelled the body
  }
  await reader.cancel().catch(() => {});
}

/**
 * Reads a multipart/form-data body as a stream with busboy: every file is spooled to a temporary
 * file as it arrives (SHA-256, size, first bytes taken on the way), so no file is ever held whole
 * in memory. Past a limit the body stops being read and 413 PAYLOAD_TOO_LARGE is thrown; a body
 * that breaks off or is malformed gives 400. On any failure no temporary file is left.
 */
export async function readStagedForm(body: ReadableStream<Uint8Array> | null, contentType: string, limits: FormLimits): Promise<StagedForm> {
  const malformed = () => new CmsError('VALIDATION_FAILED', 'The multipart body could not be read', [{ path: '(body)', message: 'malformed multipart/form-data' }]);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      // Text fields stay small; files are counted by stageStream itself.
      limits: { files: limits.maxFiles, fields: 100, fieldSize: 64 * 1024, parts: limits.maxFiles + 100 },
    });
  } catch {
    throw malformed();
  }
  const entries: (FormEntry | null)[] = [];
  const staging: Promise<unknown>[] = [];
  let failure: unknown = null;
  const reader = body?.getReader();
  // Wakes the body loop from a wait for the parser to drain: after a failure it waits no more.
  let wake: (() => void) | null = null;
  // Resolves the wait for the parser's end: after a failure the parser may never finish (a file
  // stream stopped mid-way holds it), so the failure ends the wait too.
  let finish: () => void = () => {};
  let cancelTimer: NodeJS.Timeout | null = null;
  const fail = (e: unknown) => {
    failure ??= e;
    wake?.();
    finish();
    // A client that stops sending is not waited for: the body is cancelled after a while.
    if (reader && !cancelTimer) cancelTimer = setTimeout(() => { reader.cancel().catch(() => {}); }, lingerMs).unref();
  };

  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) fail(new CmsError('VALIDATION_FAILED', `The form field "${name}" is too long`, [{ path: name, message: 'too long' }]));
    else entries.push({ name, value });
  });
  parser.on('file', (name, stream, info) => {
    if (failure) {
      stream.resume();
      return;
    }
    // A body that ends inside the file errors the file stream as soon as the parser ends, maybe
    // before stageStream reads it (it makes its folder first), and an unheard 'error' would end
    // the process. The parser reports the same failure itself (its 'error' below: 400).
    stream.on('error', () => {});
    const at = entries.push(null) - 1;
    staging.push(stageStream(stream, limits.dir, limits.maxFileBytes).then(
      (staged) => {
        entries[at] = { name, file: { filename: info.filename ?? '', staged } };
        if (failure) return removeStaged([staged]);
        return undefined;
      },
      (e) => {
        stream.resume();
        fail(e);
      },
    ));
  });
  parser.on('filesLimit', () => fail(new CmsError('VALIDATION_FAILED', `A request may carry at most ${limits.maxFiles} files`, [{ path: 'files', message: `at most ${limits.maxFiles}` }])));
  parser.on('partsLimit', () => fail(malformed()));
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
    parser.on('close', resolve);
    parser.on('error', () => {
      fail(malformed());
      resolve();
    });
  });

  let seen = 0;
  try {
    if (!reader) throw malformed();
    for (;;) {
      if (failure) break;
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch {
        // The client went away mid-body (or the body was cancelled after a failure).
        fail(malformed());
        break;
      }
      if (next.done) break;
      seen += next.value.byteLength;
      if (seen > limits.maxBodyBytes) {
        fail(uploadTooLarge(limits.maxFileBytes));
        break;
      }
      if (!parser.write(next.value)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            parser.off('drain', done);
            parser.off('close', done);
            wake = null;
            resolve();
          };
          wake = done;
          parser.on('drain', done);
          parser.on('close', done);
        });
      }
    }
    if (!failure) {
      parser.end();
      await finished;
    }
    if (failure) parser.destroy();
    await Promise.allSettled(staging);
    // Settled twice: a file that finished after the failure is removed by its own handler.
    await Promise.allSettled(staging);
  } catch (e) {
    failure ??= e;
  }
  const done = entries.filter((e): e is FormEntry => e !== null);
  const stagedFiles = done.flatMap((e) => (e.file ? [e.file.staged] : []));
  if (failure) {
    await removeStaged(stagedFiles);
    parser.destroy();
    // What the client still sends is read and dropped (up to the body limit once more, or until
    // the cancel timer) while the answer goes out: closing a socket with unread data resets it,
    // and the client would see a reset instead of the 413 or 400.
    if (reader) void discardRest(reader, limits.maxBodyBytes);
    throw failure instanceof CmsError ? failure : malformed();
  }
  if (cancelTimer) clearTimeout(cancelTimer);
  return {
    entries: done,
    text(...names) {
      for (const name of names) {
        const found = done.find((e) => e.name === name && e.value !== undefined);
        if (found?.value !== undefined) return found.value;
      }
      return undefined;
    },
    files: (...names) => done.flatMap((e) => (e.file && names.includes(e.name) ? [{ name: e.name, ...e.file }] : [])),
    cleanup: () => removeStaged(stagedFiles),
  };
}
