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

/**
 * Makes every folder under `dir` (itself included) 0700 and, unless `files` is false, every file
 * 0600. PGlite (Emscripten's NODEFS) creates its files 0666 whatever the umask, so the engine runs
 * this on its database folder after opening and after closing it. Answers the folders other users
 * could read or enter before, for a warning.
 */
export function securePrivateTree(dir: string, options: { files?: boolean } = {}): string[] {
  const files = options.files ?? true;
  const loosened: string[] = [];
  const visitDir = (path: string) => {
    let mode: number;
    try { mode = lstatSync(path).mode; } catch { return; }
    if ((mode & 0o077) !== 0) loosened.push(path);
    if ((mode & 0o777) !== privateDirMode) tryChmod(path, privateDirMode);
    let entries;
    try { entries = readdirSync(path, { withFileTypes: true }); } catch { return; }
    for (const entry of entries) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) visitDir(child);
      else if (files && entry.isFile()) {
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
