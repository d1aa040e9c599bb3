#!/usr/bin/env node
// Builds dist/ in three parts: the server with tsc (src/ but src/admin), then the CLI's esbuild
// bundle of it (dist/cli-bundle); the admin web app with Vite (src/admin → dist/admin); and the
// migrated database a new PGlite data folder starts from (dist/pglite-template.tar.gz). With
// --if-stale each part is skipped when it was built after the last change to anything it reads, so
// `npm test` after `npm ci` (whose `prepare` already built) or a second test run skips the compile,
// while a test run after editing src/ still tests the edit.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const ifStale = process.argv.includes('--if-stale');

/**
 * zod's `z.locales` holds its error messages in some 50 languages (a third of the megabyte of zod a
 * command parses); the engine writes its own messages and uses zod's English, its default. In the
 * CLI's bundle, `z.locales` offers English alone.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '..', 'locales', 'index.js'), namespace: 'zod-english-only' }
        : undefined));
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      resolveDir: dirname(args.path),
    }));
  },
};

const parts = [
  {
    name: 'server',
    stamp: join(root, 'dist', '.build-stamp'),
    inputs: ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'],
    skip: ['src/admin'],
    clean: [join(root, 'dist', 'cli-bundle')],
    steps: [
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')],
      // The CLI as a few files instead of some 400 modules (bin/cms.mjs loads it): a command starts
      // in less time. Chunks split at the CLI's dynamic imports, so a command loads what it runs.
      // Left out (loaded from node_modules when needed): packages that find files of their own
      // beside their code (PGlite's WebAssembly, sharp's binary, Scalar's browser bundle), and
      // large ones a command rarely needs (the AWS SDK, the AI SDK, sanitize-html, pino-pretty,
      // listhen), and undici (CommonJS, imported dynamically: see the check below). A module that finds a file relative to itself sits two folders below the root,
      // as the bundle does (src/lib/package-files.ts).
      async () => {
        const { build } = await import('esbuild');
        const { metafile } = await build({
          metafile: true,
          entryPoints: [join(root, 'dist', 'cli', 'main.js')],
          outdir: join(root, 'dist', 'cli-bundle'),
          chunkNames: '[name]-[hash]',
          bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning',
          external: ['@electric-sql/pglite', 'sharp', '@scalar/*', '@aws-sdk/*', 'ai', '@ai-sdk/*', 'sanitize-html', 'pino-pretty', 'listhen', 'undici'],
          plugins: [zodEnglishOnly],
          // CommonJS packages in the bundle (commander) require Node's own modules.
          banner: { js: "import { createRequire as __cmsRequire } from 'node:module'; const require = __cmsRequire(import.meta.url);" },
        });
        // A dynamic import of a CommonJS package gets no named exports from esbuild (Node gives
        // them): `(await import('undici')).Agent` is undefined in the bundle. Such a package stays
        // external; the build refuses one that does not.
        const cjsLoadedLazily = Object.entries(metafile.inputs).flatMap(([file, input]) => input.imports
          .filter((i) => i.kind === 'dynamic-import' && metafile.inputs[i.path]?.format === 'cjs')
          .map((i) => `${file} imports ${i.original ?? i.path} (${i.path})`));
        if (cjsLoadedLazily.length) {
          throw new Error(`CommonJS packages imported dynamically must be external in the CLI bundle:\n${cjsLoadedLazily.join('\n')}`);
        }
      },
    ],
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
  {
    // A new PGlite data folder starts from this dump of a migrated database instead of running
    // initdb and every migration (src/db/client.ts: pgliteTemplateFile), about 3 s of `cms init`.
    name: 'database template',
    stamp: join(root, 'dist', '.template-build-stamp'),
    inputs: ['db-migrations', 'package.json', 'package-lock.json'],
    skip: [],
    steps: [
      async () => {
        const { createDb, pgliteTemplateFile } = await import(pathToFileURL(join(root, 'dist', 'db', 'client.js')).href);
        const handle = await createDb({ dataDir: 'memory://' });
        try {
          await handle.migrateDatabase();
          const dump = await handle.dump();
          writeFileSync(`${pgliteTemplateFile}.tmp`, Buffer.from(await dump.arrayBuffer()));
          renameSync(`${pgliteTemplateFile}.tmp`, pgliteTemplateFile);
        } finally {
          await handle.close();
        }
      },
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
  for (const dir of part.clean ?? []) rmSync(dir, { recursive: true, force: true });
  for (const step of part.steps) {
    if (typeof step === 'function') {
      await step();
      continue;
    }
    const [script, ...args] = step;
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
