// `npm run bench`: seeds 10,000 published pages (about 1 KB of fields and 3 resolved references
// each) and 100,000 collection items, then measures the real server (a child process) with
// autocannon (this process) at 10 connections on loopback (page creation: 8, beside a bare
// node:http server doing one plain INSERT per request), beside a bare node:http server that
// answers the same bytes as the cached single page (and, for the cached list rows, one that
// answers the list's own bytes: column "x list bytes"). Prints a table and writes it as JSON under
// bench/results/.
//
//   node bench/run.mjs [--driver pglite|postgres] [--duration 8] [--warmup 3] [--pages 10000]
//                      [--items 100000] [--no-analyze] [--keep] [--data DIR] [--no-webhooks]
//                      [--no-startup] [--no-import]   (--help prints this list)
//
// PGlite runs in a temporary data folder; PostgreSQL in a fresh database on DATABASE_URL's server
// (default postgres://postgres@127.0.0.1:5432/test), created here and dropped at the end.
// After seeding, VACUUM ANALYZE gives the planner its statistics and marks the rows visible, as
// autovacuum would on PostgreSQL soon after a bulk load and the statistics job of `cms serve` does
// on PGlite (--no-analyze measures without them).
// --keep keeps the seeded PGlite folder (or PostgreSQL database) and prints it; --data DIR runs
// on what was kept again without seeding (page creation adds pages to it).
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freshPostgresDatabase } from './fresh-database.mjs';

const usage = `usage: npm run bench -- [--driver pglite|postgres] [--duration 8] [--warmup 3] [--pages 10000] [--items 100000]
                            [--no-analyze] [--keep] [--data DIR] [--no-webhooks] [--no-startup] [--no-import]
(see the comment at the top of bench/run.mjs)`;
let parsed;
try {
  parsed = parseArgs({
    options: {
      help: { type: 'boolean', short: 'h', default: false },
      driver: { type: 'string', default: 'pglite' },
      duration: { type: 'string', default: '8' },
      warmup: { type: 'string', default: '3' },
      pages: { type: 'string', default: '10000' },
      items: { type: 'string', default: '100000' },
      'no-analyze': { type: 'boolean', default: false },
      'no-webhooks': { type: 'boolean', default: false },
      'no-startup': { type: 'boolean', default: false },
      'no-import': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      data: { type: 'string' },
    },
  });
} catch (e) {
  console.error(`${e.message}\n${usage}`);
  process.exit(2);
}
const args = parsed.values;
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const driver = args.driver;
if (driver !== 'pglite' && driver !== 'postgres') {
  console.error(`--driver must be pglite or postgres, got ${driver}\n${usage}`);
  process.exit(2);
}
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const pageCount = Number(args.pages);
const itemCount = Number(args.items);
const connections = 10;
/** Page creation runs at 8 in flight, as issue 19 measures it. */
const writeConnections = 8;
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const startedAt = Date.now();
const loadAtStart = loadavg();
const log = (msg) => console.error(`[bench ${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${msg}`);

// Every server runs with rate limiting on (its headers are part of the work) but out of reach.
const serverEnv = { CMS_RATE_LIMIT: '1000000000/60', CMS_BASE_URL: 'http://127.0.0.1:3000' };

// ---------------------------------------------------------------------------------------------
// The database

const dir = args.data ?? mkdtempSync(join(tmpdir(), 'cms-bench-'));
const kept = args.data ? JSON.parse(readFileSync(join(dir, 'bench-seed.json'), 'utf8')) : null;
if (kept && (kept.databaseUrl ? 'postgres' : 'pglite') !== driver) throw new Error(`${dir} was seeded for the other driver`);
let databaseUrl = kept?.databaseUrl;
let dropDatabase = async () => {};
if (driver === 'postgres' && !kept) {
  const fresh = await freshPostgresDatabase('cms_bench', (name, e) => log(`could not drop ${name}: ${e.message}`));
  databaseUrl = fresh.databaseUrl;
  dropDatabase = async () => {
    if (args.keep) return log(`kept the database ${databaseUrl}`);
    await fresh.drop();
  };
}
const engineEnv = { ...serverEnv, BENCH_DIR: dir, CMS_DATA_DIR: join(dir, '.cms'), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '' }) };

const words = ['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'granite', 'harbor', 'indigo', 'juniper', 'kelp', 'lumen', 'meadow', 'nimbus', 'onyx', 'prairie'];
const nouns = ['lamp', 'chair', 'table', 'rocket', 'kettle', 'mirror', 'shelf', 'clock'];
const lorem = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ';
const text = (n, seed) => (lorem.repeat(Math.ceil((n + 40) / lorem.length)).slice(seed % 40, (seed % 40) + n));

/**
 * A multi-row insert of a batch of rows through cms.db, sent as one JSON parameter that
 * jsonb_to_recordset turns into rows (drizzle's builder spends longer building 1,000-row inserts
 * than the database spends running them). Column names and types come from the drizzle table.
 */
async function insertRows(db, table, rows) {
  const { getTableColumns, sql } = await import('drizzle-orm');
  const columns = getTableColumns(table);
  const keys = Object.keys(rows[0]);
  const names = sql.join(keys.map((k) => sql.raw(`"${columns[k].name}"`)), sql`, `);
  const types = sql.join(keys.map((k) => sql.raw(`"${columns[k].name}" ${columns[k].getSQLType()}`)), sql`, `);
  const payload = JSON.stringify(rows.map((r) => Object.fromEntries(keys.map((k) => [columns[k].name, r[k]]))));
  await db.execute(sql`insert into ${table} (${names}) select ${names} from jsonb_to_recordset(${payload}::jsonb) as x(${types})`);
}

/** Seeds through the engine (types, keys) and, for speed, multi-row inserts through cms.db. */
async function seed() {
  const { loadConfig } = await import('../dist/config.js');
  const { createCms } = await import('../dist/runtime.js');
  const schema = await import('../dist/db/schema/index.js');
  const cms = await createCms(loadConfig({ cwd: dir, env: engineEnv }));
  const terminal = { actor: { kind: 'terminal' } };
  await cms.run('schema.push', {
    pageTypes: [{ definition: { slug: 'article', name: 'Article', fields: [
      { name: 'title', type: 'text', required: true },
      { name: 'summary', type: 'textarea' },
      { name: 'body', type: 'textarea' },
      { name: 'related', type: 'reference', options: { collectionType: 'products', multiple: true } },
    ] } }],
    collections: [{ definition: { slug: 'products', name: 'Products', fields: [
      { name: 'price', type: 'number' },
      { name: 'description', type: 'text' },
    ] } }],
    components: [],
  }, terminal);
  const publicKey = (await cms.run('keys.create', { type: 'public', name: 'bench' }, terminal)).key;
  const secretKey = (await cms.run('keys.create', { type: 'secret', name: 'bench', permissions: ['content:write'] }, terminal)).key;
  const project = await cms.resolveProject(cms.config.project);
  const [pageType] = await cms.db.select().from(schema.pageTypes);
  const [itemType] = await cms.db.select().from(schema.collectionTypes);

  const t0 = Date.now() - 1e9;
  const itemIds = [];
  const batch = 1000;
  const perTransaction = 10;
  for (let start = 0; start < itemCount; start += batch * perTransaction) {
    await cms.db.transaction(async (tx) => {
      for (let b = start; b < Math.min(itemCount, start + batch * perTransaction); b += batch) {
        const rows = [];
        for (let i = b; i < Math.min(itemCount, b + batch); i++) {
          const id = randomUUID();
          itemIds.push(id);
          const content = { price: Math.round(((i * 7919) % 100_000)) / 100, description: text(100, i) };
          const at = new Date(t0 + i * 1000);
          rows.push({
            id, projectId: project.id, collectionTypeId: itemType.id, status: 'published', sortOrder: i,
            name: `${words[i % words.length]} ${nouns[Math.floor(i / words.length) % nouns.length]} ${i}`, slug: `product-${i}`,
            draftContent: content, publishedContent: content, publishedAt: at, createdAt: at, updatedAt: at,
          });
        }
        await insertRows(tx, schema.collectionItems, rows);
      }
    });
  }
  log(`seeded ${itemCount} collection items`);
  for (let start = 0; start < pageCount; start += batch * perTransaction) {
    await cms.db.transaction(async (tx) => {
      for (let b = start; b < Math.min(pageCount, start + batch * perTransaction); b += batch) {
        const rows = [];
        for (let i = b; i < Math.min(pageCount, b + batch); i++) {
          const related = [0, 1, 2].map((k) => ({ _ref: itemIds[(i * 31 + k * 7) % itemIds.length], _type: 'collectionItem' }));
          const content = { title: `Article ${i}`, summary: text(200, i), body: text(620, i + 3), related };
          const at = new Date(t0 + i * 60_000);
          rows.push({
            projectId: project.id, pageTypeId: pageType.id, status: 'published', name: `Article ${i}`, slug: `article-${i}`,
            draftContent: content, publishedContent: content, seo: { title: `Article ${i}` }, publishedSeo: { title: `Article ${i}` },
            publishedAt: at, createdAt: at, updatedAt: at,
          });
        }
        await insertRows(tx, schema.pages, rows);
      }
    });
  }
  log(`seeded ${pageCount} pages`);
  if (!args['no-analyze']) {
    const { sql } = await import('drizzle-orm');
    // What autovacuum does on PostgreSQL after a bulk load, and the engine's statistics job of
    // `cms serve` on PGlite (src/db/statistics.ts): statistics, and the visibility map.
    await cms.db.execute(sql`vacuum analyze`);
    log('vacuumed and analyzed');
  }
  await cms.close();
  const seeded = { publicKey, secretKey, pageType: pageType.slug, collection: itemType.slug, ...(databaseUrl ? { databaseUrl } : {}) };
  writeFileSync(join(dir, 'bench-seed.json'), JSON.stringify(seeded));
  return seeded;
}

// ---------------------------------------------------------------------------------------------
// Servers and load

async function startChild(mode, env, script = 'server.mjs') {
  const child = fork(join(benchDir, script), [mode], { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (m) => (m?.ready ? resolve(m.port) : reject(new Error(`unexpected message ${JSON.stringify(m)}`))));
    child.once('exit', (code) => reject(new Error(`the ${mode} server exited with code ${code} before it was ready`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    /** The child's CPU time so far, in milliseconds. */
    cpu() {
      return new Promise((resolve) => {
        const onMessage = (m) => {
          if (!m?.cpu) return;
          child.off('message', onMessage);
          resolve((m.cpu.user + m.cpu.system) / 1000);
        };
        child.on('message', onMessage);
        child.send({ cpu: true });
      });
    },
    async stop() {
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.send({ stop: true });
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await done;
      clearTimeout(timer);
    },
  };
}

/** A GET with node:http: the status, headers and body bytes as sent. */
function rawGet(url, { headers = {} }) {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** One measured run: every answer's latency and status, the seconds it took, the server's CPU. */
async function runSlice(target, seconds) {
  const { server, path, options, expectStatus } = target;
  const times = [];
  const statuses = new Map();
  const instance = autocannon({ url: server.url + path, connections, ...options, duration: seconds });
  instance.on('response', (_client, status, _bytes, responseTime) => {
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status === expectStatus) times.push(responseTime);
  });
  const cpuBefore = await server.cpu();
  const started = performance.now();
  const result = await instance;
  const elapsed = Math.min((performance.now() - started) / 1000, result.duration || Infinity);
  return { times, statuses, seconds: elapsed, cpu: (await server.cpu()) - cpuBefore, failed: result.errors + result.timeouts };
}

function summarize(name, target, slices) {
  const times = slices.flatMap((x) => x.times).sort((a, b) => a - b);
  const statuses = new Map();
  for (const x of slices) for (const [status, count] of x.statuses) statuses.set(status, (statuses.get(status) ?? 0) + count);
  const seconds = slices.reduce((sum, x) => sum + x.seconds, 0);
  const cpu = slices.reduce((sum, x) => sum + x.cpu, 0);
  const unexpected = [...statuses].filter(([status]) => status !== target.expectStatus).reduce((sum, [, count]) => sum + count, 0)
    + slices.reduce((sum, x) => sum + x.failed, 0);
  const row = {
    scenario: name,
    rps: Math.round(times.length / seconds),
    p50: Number(percentile(times, 50).toFixed(2)),
    p99: Number(percentile(times, 99).toFixed(2)),
    requests: times.length,
    serverCpuMs: Number((cpu / Math.max(1, times.length)).toFixed(3)),
    unexpected,
    statuses: Object.fromEntries(statuses),
  };
  log(`${name}: ${row.rps} rps, p50 ${row.p50} ms, p99 ${row.p99} ms, server CPU ${row.serverCpuMs} ms/request${unexpected ? `, ${unexpected} unexpected answers ${JSON.stringify(row.statuses)}` : ''}`);
  return row;
}

const target = (server, path, options, expectStatus = 200) => ({ server, path, options, expectStatus });

/**
 * A warm-up, then one measured run. Latencies are taken from every answered request (not only
 * autocannon's whole-millisecond histogram); any answer that is not the expected status counts
 * as an error and is reported.
 */
async function measure(name, server, path, options, expectStatus = 200) {
  const t = target(server, path, options, expectStatus);
  await runSlice(t, warmup);
  return summarize(name, t, [await runSlice(t, duration)]);
}

/**
 * Two scenarios measured in turns (A, B, A, B, A, B, A, B), so that a machine whose load drifts
 * during the run weighs on both alike: the ratio of the two is the figure that matters.
 */
async function measureInTurns([nameA, a], [nameB, b]) {
  await runSlice(a, warmup);
  await runSlice(b, warmup);
  const slicesA = [];
  const slicesB = [];
  for (let turn = 0; turn < 4; turn++) {
    slicesA.push(await runSlice(a, duration / 4));
    slicesB.push(await runSlice(b, duration / 4));
  }
  return [summarize(nameA, a, slicesA), summarize(nameB, b, slicesB)];
}

/**
 * Runs `measure` while an editor saves one page every 100 ms: a side loop in this process PUTs a
 * new summary through the API with the secret key (each save a committed write, which makes the
 * server's cached answers of the project stale). The row notes how many saves went through.
 */
async function whileSaving(server, seeded, slug, measure) {
  let stop = false;
  let saves = 0;
  let failed = 0;
  const runId = Date.now().toString(36);
  const loop = (async () => {
    while (!stop) {
      const started = Date.now();
      const r = await fetch(`${server.url}/api/v1/pages/${slug}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-api-key': seeded.secretKey, 'idempotency-key': `bench-save-${runId}-${saves + failed}` },
        body: JSON.stringify({ fields: { summary: text(200, saves + failed) } }),
      }).catch(() => null);
      await r?.arrayBuffer();
      if (r?.status === 200) saves++;
      else failed++;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 100 - (Date.now() - started))));
    }
  })();
  try {
    const row = await measure();
    return { ...row, unexpected: row.unexpected + failed, saves, failedSaves: failed };
  } finally {
    stop = true;
    await loop;
    log(`  ${saves} saves went through during that run${failed ? `, ${failed} failed` : ''}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The run

let exitCode = 0;
const rows = [];
let webhooks = null;
let startup = null;
let importRun = null;
try {
  let seeded;
  if (kept) {
    seeded = kept;
    log(`driver ${driver}; reusing what was seeded in ${databaseUrl ?? dir}`);
  } else {
    log(`driver ${driver}; seeding ${pageCount} pages and ${itemCount} items in ${driver === 'postgres' ? databaseUrl : dir}`);
    seeded = await seed();
  }
  const read = { headers: { 'x-api-key': seeded.publicKey } };
  const singlePath = `/api/v1/pages/article-${Math.floor(pageCount / 2)}`;
  const listPath = '/api/v1/pages?limit=20';
  const filterPath = `/api/v1/collections/${seeded.collection}?filter[fields.price][gt]=500&filter[name][contains]=rocket&sort=name`;

  // Cached reads: the response cache on, as served by default.
  let server = await startChild('cms', engineEnv);
  log(`cms server (cache on) at ${server.url}`);
  // A bare node:http server answering the bytes the cms answered for `path`, exactly as autocannon
  // gets them (fetch would ask for and undo compression).
  const rawServerOf = async (path) => {
    const captured = await rawGet(server.url + path, read);
    if (captured.status !== 200) throw new Error(`GET ${path} answered ${captured.status}: ${captured.body}`);
    const rawResponse = {
      status: 200,
      // Everything but what Node's server adds itself, so the same bytes go out.
      headers: Object.fromEntries(Object.entries(captured.headers).filter(([k]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k))),
      body: captured.body.toString('base64'),
    };
    const raw = await startChild('raw', { BENCH_RAW_RESPONSE: JSON.stringify(rawResponse) });
    const echoed = await rawGet(raw.url + path, {});
    if (!echoed.body.equals(captured.body) || echoed.headers['content-length'] !== captured.headers['content-length']) {
      throw new Error('the baseline server does not answer the bytes the cms answered');
    }
    return raw;
  };
  const raw = await rawServerOf(singlePath);
  const [single, baseline] = await measureInTurns(
    ['cached single page', target(server, singlePath, read)],
    ['raw node:http baseline (same bytes)', target(raw, singlePath, {})],
  );
  await raw.stop();
  rows.push(single);
  // The list's answer is far larger than the single page's: its rows are also shown against a raw
  // server sending the list's own bytes, measured in turns with the cached list.
  const rawList = await rawServerOf(listPath);
  const [list, listBaseline] = await measureInTurns(
    ['cached list (20 of 10,000)', target(server, listPath, read)],
    ["raw node:http baseline (the list's bytes)", target(rawList, listPath, {})],
  );
  await rawList.stop();
  rows.push(list);
  const saving = await whileSaving(server, seeded, `article-${pageCount - 1}`, () =>
    measure('cached list (20 of 10,000) while a page is updated every 100 ms', server, listPath, read));
  rows.push(saving, baseline, listBaseline);
  for (const r of [list, saving, listBaseline]) r.vsListBytes = Number((r.rps / listBaseline.rps).toFixed(3));
  log(`cached list at ${(list.vsListBytes * 100).toFixed(1)}%, while saving at ${(saving.vsListBytes * 100).toFixed(1)}% of the raw baseline sending the list's bytes`);
  await server.stop();

  // List queries never seen before (issue 19): a random page size (15–25), page (1–100) and one
  // of the 10 contract sorts of pages, 3 references resolved, every URL new (an ignored unique
  // parameter), with the response cache on as served: neither it nor any memo of whole answers
  // helps; only the engine's totals do. Beside it, the raw baseline: a bare node:http server
  // running the same page of rows and COUNT(*) with the plain driver (bench/raw-list-server.mjs).
  // PGlite opens its folder in one process only, so there the two run one after the other (the
  // cms server stopped first); on PostgreSQL they run in turns.
  const sortKeys = ['createdAt', 'updatedAt', 'publishedAt', 'name', 'slug'].flatMap((k) => [k, `-${k}`]);
  const runKey = Date.now().toString(36);
  let u = 0;
  const neverSeen = (prefix, unique) => [{
    setupRequest: (req) => {
      const limit = 15 + Math.floor(Math.random() * 11);
      const page = 1 + Math.floor(Math.random() * 100);
      const sort = sortKeys[Math.floor(Math.random() * sortKeys.length)];
      return { ...req, path: `${prefix}?limit=${limit}&page=${page}&sort=${sort}${unique ? `&u=${runKey}-${++u}` : ''}` };
    },
  }];
  const neverSeenName = 'list queries never seen before (15–25 of 10,000, page 1–100, 10 sorts, refs resolved; cache on)';
  const rawListName = '  raw baseline: node:http + plain driver, same page of rows + COUNT(*), no references';
  server = await startChild('cms', engineEnv);
  log(`cms server (cache on) at ${server.url}`);
  if (driver === 'postgres') {
    const rawList = await startChild('raw-list', engineEnv, 'raw-list-server.mjs');
    rows.push(...await measureInTurns(
      [neverSeenName, target(server, '/api/v1/pages', { ...read, requests: neverSeen('/api/v1/pages', true) })],
      [rawListName, target(rawList, '/', { requests: neverSeen('/', false) })],
    ));
    await rawList.stop();
    await server.stop();
  } else {
    await autocannon({ url: server.url, connections, duration: warmup * 2, ...read, requests: neverSeen('/api/v1/pages', true) });
    rows.push(await measure(neverSeenName, server, '/api/v1/pages', { ...read, requests: neverSeen('/api/v1/pages', true) }));
    await server.stop();
    const rawList = await startChild('raw-list', engineEnv, 'raw-list-server.mjs');
    await autocannon({ url: rawList.url, connections, duration: warmup * 2, requests: neverSeen('/', false) });
    rows.push(await measure(rawListName, rawList, '/', { requests: neverSeen('/', false) }));
    await rawList.stop();
  }
  const neverSeenRow = rows.find((r) => r.scenario === neverSeenName);
  const rawListRow = rows.find((r) => r.scenario === rawListName);
  neverSeenRow.vsRaw = Number((neverSeenRow.rps / rawListRow.rps).toFixed(3));
  log(`never-seen lists at ${(neverSeenRow.vsRaw * 100).toFixed(1)}% of the raw list baseline`);

  // Uncached reads and writes: the response cache off, so every read goes through h3 and its
  // operation. Lists keep only their totals in the engine (services.listTotals, checked against
  // the content revision read beside the rows); the indented rows after them measure without.
  server = await startChild('cms', { ...engineEnv, CMS_CACHE: 'off' });
  log(`cms server (cache off) at ${server.url}`);
  const check = await fetch(server.url + filterPath, read);
  const checked = await check.json();
  if (check.status !== 200) throw new Error(`GET ${filterPath} answered ${check.status}: ${JSON.stringify(checked)}`);
  log(`filter query matches ${checked.pagination.total} of ${itemCount} items`);
  // A fresh process runs PGlite's WebAssembly and the JavaScript around it unoptimised for its
  // first thousands of queries: warm the whole server first, not only each scenario's URL.
  await autocannon({ url: server.url, connections, duration: warmup * 2, requests: [{ ...read, path: listPath }, { ...read, path: filterPath }] });
  rows.push(await measure('uncached list (20 of 10,000, refs resolved; cache off)', server, listPath, read));
  // The same two with a new URL each request (for a cache in front): the list read and resolved
  // each time (its total is known), and a new price bound each time (total and page both computed).
  let m = 0;
  rows.push(await measure('  same list, computed each request (an ignored parameter makes it new)', server, listPath, {
    ...read, requests: [{ setupRequest: (req) => ({ ...req, path: `${listPath}&n=${++m}` }) }],
  }));
  rows.push(await measure('filtered + sorted collection query (100,000 items; cache off)', server, filterPath, read));
  rows.push(await measure('  same query, a new price bound each request (totals and pages computed)', server, filterPath, {
    ...read, requests: [{ setupRequest: (req) => ({ ...req, path: filterPath.replace('gt]=500', `gt]=${(500 + ++m / 1e6).toFixed(6)}`) }) }],
  }));

  // Page creation at 8 in flight (the issue's figure), beside the write baseline: a bare node:http
  // server doing one plain INSERT of the same row per request on the same database.
  const runId = Date.now().toString(36);
  let n = 0;
  const createRequests = [{
    method: 'POST',
    path: '/api/v1/pages',
    setupRequest(req) {
      n++;
      const related = [0, 1, 2].map((k) => ({ _ref: checked.data[(n + k) % checked.data.length].id, _type: 'collectionItem' }));
      return {
        ...req,
        headers: { 'content-type': 'application/json', 'x-api-key': seeded.secretKey, 'idempotency-key': `bench-${runId}-${n}` },
        body: JSON.stringify({ pageTypeSlug: seeded.pageType, name: `New ${n}`, slug: `new-${runId}-${n}`, fields: { title: `New ${n}`, summary: text(200, n), body: text(620, n), related } }),
      };
    },
  }];
  const writeOptions = { connections: writeConnections, requests: createRequests };
  const writeNames = [
    `page creation (POST, unique slug + Idempotency-Key, 3 refs; ${writeConnections} in flight)`,
    `raw node:http + one plain INSERT per POST (write baseline; ${writeConnections} in flight)`,
  ];
  const rawInsertEnv = { ...engineEnv, BENCH_PAGE_TYPE: seeded.pageType };
  if (driver === 'postgres') {
    // Both servers up at once, measured in turns on the already warm cms server.
    const rawInsert = await startChild('raw-insert', rawInsertEnv);
    rows.push(...await measureInTurns(
      [writeNames[0], target(server, '/api/v1/pages', writeOptions, 201)],
      [writeNames[1], target(rawInsert, '/api/v1/pages', writeOptions, 201)],
    ));
    await rawInsert.stop();
    await server.stop();
  } else {
    // PGlite lets one process open its folder: the warm cms server first, then the baseline.
    rows.push(await measure(writeNames[0], server, '/api/v1/pages', writeOptions, 201));
    await server.stop();
    const rawInsert = await startChild('raw-insert', rawInsertEnv);
    rows.push(await measure(writeNames[1], rawInsert, '/api/v1/pages', writeOptions, 201));
    await rawInsert.stop();
  }
  rows.at(-2).baseline = 'write';
  rows.at(-1).baseline = 'write';

  const webhookBench = new URL('./webhooks.mjs', import.meta.url);
  if (!args['no-webhooks'] && existsSync(fileURLToPath(webhookBench))) {
    log('webhooks: bench/webhooks.mjs');
    const { runWebhookBench } = await import(webhookBench.href);
    webhooks = await runWebhookBench({ driver, log: (message) => log(`webhooks: ${message}`) });
  }
  // CLI start-up on a PGlite folder (the CLI opens the database itself only when it is embedded).
  const startupBench = new URL('./startup.mjs', import.meta.url);
  if (driver === 'pglite' && !args['no-startup'] && existsSync(fileURLToPath(startupBench))) {
    log('startup: bench/startup.mjs');
    const { runStartupBench } = await import(startupBench.href);
    startup = await runStartupBench({ log: (message) => log(`startup: ${message}`) });
  }
  const importBench = new URL('./import.mjs', import.meta.url);
  if (!args['no-import'] && existsSync(fileURLToPath(importBench))) {
    log('import: bench/import.mjs');
    const { runImportBench } = await import(importBench.href);
    importRun = await runImportBench({ driver, log: (message) => log(`import: ${message}`) });
  }
} catch (e) {
  console.error(e);
  exitCode = 1;
} finally {
  await dropDatabase();
  if (args.keep || args.data) log(`kept the data folder ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

if (rows.length) {
  // Reads against the read baseline (same bytes), writes against the write baseline (a plain INSERT).
  // (The list rows' ratio to the raw server sending the list's own bytes is `vsListBytes`.)
  const readBaseline = rows.find((r) => r.scenario.startsWith('raw node:http baseline (same bytes)'));
  const writeBaseline = rows.find((r) => r.scenario.startsWith('raw') && r.baseline === 'write');
  for (const r of rows) {
    const baseline = r.baseline === 'write' ? writeBaseline : readBaseline;
    r.ratio = baseline ? Number((r.rps / baseline.rps).toFixed(3)) : null;
  }
  const head = ['scenario', 'rps', 'p50 ms', 'p99 ms', 'x baseline', 'x list bytes', 'server CPU ms/req', 'errors'];
  const percent = (x) => (x === null || x === undefined ? '-' : `${(x * 100).toFixed(1)}%`);
  const body = rows.map((r) => [r.scenario, String(r.rps), r.p50.toFixed(2), r.p99.toFixed(2), percent(r.ratio), percent(r.vsListBytes), r.serverCpuMs.toFixed(3), String(r.unexpected)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const load = (l) => l.map((x) => x.toFixed(2)).join(' ');
  console.log(`\ncms bench, driver ${driver}, ${connections} connections, ${duration} s per scenario after ${warmup} s warm-up, ${cpus().length} cores, Node ${process.version}`);
  console.log(`load average ${load(loadAtStart)} at the start, ${load(loadavg())} at the end${args['no-analyze'] ? '; no ANALYZE after seeding' : ''}`);
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const b of body) console.log(line(b));
  if (webhooks) console.log('\nwebhooks:', JSON.stringify(webhooks, null, 2));
  if (startup) console.log('\nstartup:', JSON.stringify(startup, null, 2));
  if (importRun) console.log('\nimport:', JSON.stringify(importRun, null, 2));
  const resultsDir = join(benchDir, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${new Date().toISOString().slice(0, 10)}-${driver}.json`);
  writeFileSync(file, JSON.stringify({
    date: new Date().toISOString(), driver, connections, duration, warmup, pages: pageCount, items: itemCount,
    machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadAverageAtStart: loadAtStart, loadAverageAtEnd: loadavg() },
    analyzed: !args['no-analyze'],
    seconds: Math.round((Date.now() - startedAt) / 1000),
    scenarios: rows,
    ...(webhooks ? { webhooks } : {}),
    ...(startup ? { startup } : {}),
    ...(importRun ? { import: importRun } : {}),
  }, null, 2) + '\n');
  console.log(`\nwritten to ${file} (${Math.round((Date.now() - startedAt) / 1000)} s in all)`);
}
process.exitCode = exitCode;
