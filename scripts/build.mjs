#!/usr/bin/env node
// Builds dist/ with tsc. With --if-stale it does nothing when dist/ was built after the last change
// to anything the build reads (src/, the tsconfig files, package.json), so `npm test` after
// `npm ci` (whose `prepare` already built) or a second test run skips the compile, while a test run
// after editing src/ still tests the edit.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.build-stamp');
const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

/** The newest modification time of a file, or of any file or folder below a folder. */
function newest(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  // A folder's own time changes when a file in it is added, removed or renamed.
  let latest = info.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

if (process.argv.includes('--if-stale') && existsSync(stamp)) {
  const built = statSync(stamp).mtimeMs;
  const changed = Math.max(...inputs.map((p) => newest(join(root, p))));
  if (changed < built) {
    console.log('dist/ is up to date with src/; not rebuilding (npm run build forces it)');
    process.exit(0);
  }
}

const started = Date.now();
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
if (result.status !== 0) process.exit(result.status ?? 1);
// Written only after a successful build, stamped with the time the build started: a file saved
// while tsc ran is newer than the stamp and is built next time.
writeFileSync(stamp, `${new Date(started).toISOString()}\n`);
utimesSync(stamp, new Date(started), new Date(started));
console.log(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
