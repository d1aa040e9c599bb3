// Full import of the fake ButterCMS account (test/fakes/buttercms) with the contract's 100 ms
// spacing between source requests, against the time that spacing alone mandates (requests × 100 ms).
// `runImportBench()` returns the figures for the main bench; run alone it prints them.
//
//   node bench/import.mjs [--driver pglite|postgres] [--runs 1]
//
// Imports the built engine (`npm run build` first). PGlite runs on a data folder in a temporary
// directory, as `cms migrate run` does; PostgreSQL in a fresh database on DATABASE_URL's server
// (default postgres://postgres@127.0.0.1:5432/test), dropped at the end. The fake source is
// TypeScript: tsx (drizzle-kit's, a dev dependency) loads it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { freshPostgresDatabase } from './fresh-database.mjs';

const dist = (path) => import(new URL(`../dist/${path}`, import.meta.url).href);
const spacingMs = 100;

/**
 * @param {{ driver?: 'pglite' | 'postgres', log?: (m: string) => void }} [options]
 * @returns {Promise<{ driver: string, status: string, pages: number, collectionItems: number, blogPosts: number, media: number, sourceRequests: number, mandatedMs: number, importMs: number, ratio: number }>}
 */
export async function runImportBench(options = {}) {
  const driver = options.driver ?? 'pglite';
  const log = options.log ?? (() => {});
  const { tsImport } = await import('tsx/esm/api');
  const fake = await tsImport('../test/fakes/buttercms/server.ts', import.meta.url);
  const account = await tsImport('../test/fakes/buttercms/account.ts', import.meta.url);
  const [{ loadConfig }, { createCms }] = await Promise.all([dist('config.js'), dist('runtime.js')]);

  const dir = mkdtempSync(join(tmpdir(), 'cms-bench-import-'));
  let databaseUrl;
  let dropDatabase = async () => {};
  if (driver === 'postgres') {
    const fresh = await freshPostgresDatabase('cms_bench_import');
    databaseUrl = fresh.databaseUrl;
    dropDatabase = fresh.drop;
  }
  const butter = await fake.startFakeButter();
  const config = { ...loadConfig({ cwd: dir, env: {} }), dataDir: join(dir, '.cms'), ...(databaseUrl ? { databaseUrl } : {}) };
  const cms = await createCms(config);
  const terminal = { actor: { kind: 'terminal' } };
  try {
    const started = performance.now();
    const created = await cms.run('migrations.create', {
      sourcePlatform: 'buttercms',
      mode: 'full',
      config: {
        apiKey: butter.token,
        apiUrl: butter.url,
        pageTypes: [...account.fakeImportConfig.pageTypes],
        collections: [...account.fakeImportConfig.collections],
      },
    }, terminal);
    await cms.run('migrations.start', { id: created.id }, terminal);
    await cms.services.migrationRunner.settled(created.id);
    const importMs = performance.now() - started;
    const done = await cms.run('migrations.get', { id: created.id }, terminal);
    const requests = butter.requests.length;
    const row = {
      driver,
      status: done.status,
      pages: done.stats.pages ?? 0,
      collectionItems: done.stats.collectionItems ?? 0,
      blogPosts: done.stats.blogPosts ?? 0,
      media: done.stats.media ?? 0,
      sourceRequests: requests,
      mandatedMs: requests * spacingMs,
      importMs: Math.round(importMs),
      ratio: Number((importMs / (requests * spacingMs)).toFixed(2)),
    };
    log(`${driver}: ${row.status}, ${row.pages} pages, ${row.collectionItems} items, ${row.blogPosts} posts, ${requests} requests: ` +
      `${row.importMs} ms against ${row.mandatedMs} ms of mandated spacing (${row.ratio}×)`);
    return row;
  } finally {
    await cms.close();
    await butter.close();
    await dropDatabase();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { driver: { type: 'string', default: 'pglite' }, runs: { type: 'string', default: '1' } } });
  const driver = values.driver === 'postgres' ? 'postgres' : 'pglite';
  for (let i = 0; i < Number(values.runs); i++) {
    const row = await runImportBench({ driver, log: (m) => console.error(m) });
    console.log(JSON.stringify(row));
  }
}
