/**
 * An upload already written to a temporary file by the door that received it (the HTTP multipart
 * parser, the CLI), measured while it streamed: its size, SHA-256, first bytes and whether all of
 * it is text. The core never opens it itself: the media store reads it (`put`, `probeImage`), so
 * a large upload is never held whole in memory. The door removes the file once the operation has
 * run, whatever its outcome.
 *
 * A class, so only code in this process can hand one in: an input that crossed JSON never is one.
 */
export class StagedUpload {
  constructor(
    /** The temporary file. */
    readonly path: string,
    readonly size: number,
    /** Lowercase hex SHA-256 of all the bytes. */
    readonly sha256: string,
    /** The first bytes (up to `stagedHeadBytes`), for the type read from magic numbers. */
    readonly head: Uint8Array,
    /** Whether all the bytes are valid UTF-8 without control characters (tab, newlines and form feed allowed). */
    readonly text: boolean,
  ) {}
}

/** How many first bytes a staged upload keeps for reading its type. */
export const stagedHeadBytes = 64 * 1024;
