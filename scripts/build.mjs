#!/usr/bin/env node
// Builds dist/ in two parts: the server with tsc (src/ but src/admin), and the admin web app with
// Vite (src/admin → dist/admin). With --if-stale each part is skipped when it was built after the
// last change to anything it reads, so `npm test` after `npm ci` (whose `prepare` already built)
// or a second test run skips the compile, while a test run after editing src/ still tests the edit.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const ifStale = process.argv.includes('--if-stale');

const parts = [
  {
    name: 'server',
    stamp: join(root, 'dist', '.build-stamp'),
    inputs: ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'],
    skip: ['src/admin'],
    steps: [[join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')]],
  },
  {
    name: 'admin app',
    stamp: join(root, 'dist', '.admin-build-stamp'),
    // The schema builder brings the server's schema rules (src/core/schema) and the schema-file serializer.
    inputs: ['src/admin', 'src/core/schema', 'src/lib/slug.ts', 'src/lib/schema-file.ts', 'package.json'],
    skip: [],
    steps: [
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'src', 'admin', 'tsconfig.json')],
      [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(root, 'src', 'admin', 'vite.config.ts'), '--logLevel', 'warn'],
    ],
  },
];

/** The newest modification time of a file, or of any file or folder below a folder (but `skip`). */
function newest(path, skip) {
  if (skip.some((s) => path === join(root, s))) return 0;
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  // A folder's own time changes when a file in it is added, removed or renamed.
  let latest = info.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry), skip));
  return latest;
}

for (const part of parts) {
  if (ifStale && existsSync(part.stamp)) {
    const built = statSync(part.stamp).mtimeMs;
    const changed = Math.max(...part.inputs.map((p) => newest(join(root, p), part.skip)));
    if (changed < built) {
      console.log(`dist/ (${part.name}) is up to date; not rebuilding (npm run build forces it)`);
      continue;
    }
  }
  const started = Date.now();
  for (const [script, ...args] of part.steps) {
    const result = spawnSync(process.execPath, [script, ...args], { stdio: 'inherit', cwd: root });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  // Written only after a successful build, stamped with the time the build started: a file saved
  // while it ran is newer than the stamp and is built next time.
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(part.stamp, `${new Date(started).toISOString()}\n`);
  utimesSync(part.stamp, new Date(started), new Date(started));
  console.log(`built dist/ (${part.name}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
