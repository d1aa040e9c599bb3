import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The data folder holds password hashes, webhook secrets and API key hashes: owner only. */
export const privateDirMode = 0o700;
export const privateFileMode = 0o600;

/** Creates the folder (and its parents that are missing) readable by the owner only. */
export function makePrivateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: privateDirMode });
  tryChmod(dir, privateDirMode);
}

export interface SecureTreeOptions {
  /** False: folders only. */
  files?: boolean;
  /**
   * Files only in the folders whose contents changed (a file added, removed or renamed) at or
   * after this time (ms since the epoch): the others' files were tightened by an earlier walk.
   */
  filesIn?: { foldersChangedSince: number };
}

/**
 * Makes every folder under `dir` (itself included) 0700 and, unless `files` is false, every file
 * 0600. PGlite (Emscripten's NODEFS) creates its files 0666 whatever the umask, so the engine runs
 * this on its database folder after opening and after closing it. Answers the folders other users
 * could read or enter before, for a warning.
 */
export function securePrivateTree(dir: string, options: SecureTreeOptions = {}): string[] {
  const files = options.files ?? true;
  const since = options.filesIn?.foldersChangedSince;
  const loosened: string[] = [];
  const visitDir = (path: string) => {
    let info;
    try { info = lstatSync(path); } catch { return; }
    const mode = info.mode;
    if ((mode & 0o077) !== 0) loosened.push(path);
    if ((mode & 0o777) !== privateDirMode) tryChmod(path, privateDirMode);
    const filesHere = files && (since === undefined || info.mtimeMs >= since);
    let entries;
    try { entries = readdirSync(path, { withFileTypes: true }); } catch { return; }
    for (const entry of entries) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) visitDir(child);
      else if (filesHere && entry.isFile()) {
        try {
          if ((lstatSync(child).mode & 0o777) !== privateFileMode) tryChmod(child, privateFileMode);
        } catch { /* removed meanwhile (a temporary file) */ }
      }
    }
  };
  try {
    if (!lstatSync(dir).isDirectory()) return loosened;
  } catch {
    return loosened;
  }
  visitDir(dir);
  return loosened;
}

function tryChmod(path: string, mode: number): void {
  try { chmodSync(path, mode); } catch { /* removed meanwhile, or not ours: nothing to tighten */ }
}
