// Webhook fan-out: 1,000 events to 5 webhooks (5,000 deliveries) on a loopback receiver, sent by
// the dispatcher job exactly as `cms serve` runs it (woken by each commit, 16 in flight). Prints
// deliveries per second and the time until the last delivery arrived; `runWebhookBench()`
// returns the same figures for the main bench.
//
//   node bench/webhooks.mjs [--driver pglite|postgres] [--events 1000] [--webhooks 5] [--per-write 50]
//
// Imports the built engine (`npm run build` first). PGlite runs in memory; PostgreSQL in a fresh
// database on DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/test), dropped at
// the end. Gives up after 55 s and reports what arrived by then.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { freshPostgresDatabase } from './fresh-database.mjs';

const dist = (path) => import(new URL(`../dist/${path}`, import.meta.url).href);

/**
 * @param {{ driver?: 'pglite' | 'postgres', events?: number, webhooks?: number, perWrite?: number, limitMs?: number, log?: (m: string) => void }} [options]
 * @returns {Promise<{ driver: string, events: number, webhooks: number, deliveries: number, delivered: number, duplicates: number, writesMs: number, lastDeliveryMs: number, deliveriesPerSecond: number, cpuMsPerDelivery: number, completed: boolean }>}
 */
export async function runWebhookBench(options = {}) {
  const driver = options.driver ?? 'pglite';
  const events = options.events ?? 1000;
  const hookCount = options.webhooks ?? 5;
  const perWrite = options.perWrite ?? 50;
  const limitMs = options.limitMs ?? 55_000;
  const log = options.log ?? (() => {});

  const [{ loadConfig }, { createDb }, { createCms }, { defineOperation }, { startJobs }, { webhookJobs }] = await Promise.all([
    dist('config.js'), dist('db/client.js'), dist('runtime.js'), dist('core/operation.js'), dist('background-jobs.js'), dist('webhooks/delivery-jobs.js'),
  ]);

  // The receiver: counts deliveries by id and notes when the last one arrived.
  const seen = new Set();
  let duplicates = 0;
  let lastAt = 0;
  let onAll = () => {};
  const allArrived = new Promise((resolve) => { onAll = resolve; });
  const deliveries = events * hookCount;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = req.headers['x-webhook-delivery-id'];
      if (seen.has(id)) duplicates++;
      seen.add(id);
      lastAt = performance.now();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (seen.size === deliveries) onAll();
    });
  });
  receiver.keepAliveTimeout = 5000;
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${receiver.address().port}/hook`;

  const dir = mkdtempSync(join(tmpdir(), 'cms-bench-webhooks-'));
  let databaseUrl;
  let dropDatabase = async () => {};
  if (driver === 'postgres') {
    const fresh = await freshPostgresDatabase('cms_bench_webhooks');
    databaseUrl = fresh.databaseUrl;
    dropDatabase = fresh.drop;
  }

  const config = { ...loadConfig({ cwd: dir, env: {} }), dataDir: join(dir, '.cms'), databaseUrl };
  const handle = await createDb(driver === 'postgres' ? { databaseUrl } : { dataDir: 'memory://' });
  const cms = await createCms(config, { handle });
  const terminal = { actor: { kind: 'terminal' } };
  let jobs;
  try {
    for (let i = 0; i < hookCount; i++) await cms.run('webhooks.create', { url: `${url}?hook=${i}`, events: ['page.published'] }, terminal);
    // A bulk publish as the content operations do it: each write emits its events in its own transaction.
    const publish = defineOperation({
      name: 'bench.publish',
      input: z.object({ from: z.number(), count: z.number() }),
      access: { role: 'editor' },
      write: true,
      async run(ctx, input) {
        for (let n = input.from; n < input.from + input.count; n++) {
          await ctx.emit('page.published', { id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, slug: `page-${n}`, name: `Page ${n}`, status: 'published' });
        }
      },
    });
    jobs = startJobs(cms, webhookJobs(cms));
    log(`${driver}: ${events} events × ${hookCount} webhooks = ${deliveries} deliveries, ${perWrite} events per write`);

    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    for (let from = 0; from < events; from += perWrite) {
      await cms.run(publish, { from, count: Math.min(perWrite, events - from) }, terminal);
    }
    const writesMs = performance.now() - t0;
    log(`writes committed after ${(writesMs / 1000).toFixed(2)} s; ${seen.size} delivered so far`);
    let timer;
    const completed = await Promise.race([
      allArrived.then(() => true),
      new Promise((resolve) => { timer = setTimeout(() => resolve(false), Math.max(0, limitMs - writesMs)); }),
    ]);
    clearTimeout(timer);
    const lastDeliveryMs = (lastAt || performance.now()) - t0;
    // CPU time of this process (engine, dispatcher and receiver alike) per delivery: a figure a
    // busy machine disturbs far less than the wall-clock rate.
    const used = process.cpuUsage(cpu0);
    const cpuMsPerDelivery = Number(((used.user + used.system) / 1000 / Math.max(1, seen.size)).toFixed(3));
    return {
      driver, events, webhooks: hookCount, deliveries, delivered: seen.size, duplicates,
      writesMs: Math.round(writesMs),
      lastDeliveryMs: Math.round(lastDeliveryMs),
      deliveriesPerSecond: Math.round(seen.size / (lastDeliveryMs / 1000)),
      cpuMsPerDelivery,
      completed,
    };
  } finally {
    await jobs?.stop();
    await cms.close();
    await handle.close();
    await dropDatabase();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values: args } = parseArgs({
    options: {
      driver: { type: 'string', default: 'pglite' },
      events: { type: 'string', default: '1000' },
      webhooks: { type: 'string', default: '5' },
      'per-write': { type: 'string', default: '50' },
    },
  });
  if (args.driver !== 'pglite' && args.driver !== 'postgres') throw new Error(`--driver must be pglite or postgres, got ${args.driver}`);
  const started = Date.now();
  const r = await runWebhookBench({
    driver: args.driver, events: Number(args.events), webhooks: Number(args.webhooks), perWrite: Number(args['per-write']),
    log: (m) => console.error(`[bench webhooks ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${m}`),
  });
  console.log(`webhook fan-out (${r.driver}): ${r.delivered}/${r.deliveries} deliveries${r.completed ? '' : ' (stopped at the time limit)'}, ` +
    `${r.duplicates} duplicates\n` +
    `  writes committed in   ${(r.writesMs / 1000).toFixed(2)} s\n` +
    `  last delivery after   ${(r.lastDeliveryMs / 1000).toFixed(2)} s\n` +
    `  deliveries per second ${r.deliveriesPerSecond}\n` +
    `  CPU ms per delivery   ${r.cpuMsPerDelivery} (this process: engine, dispatcher and receiver)`);
  process.exitCode = r.completed && r.duplicates === 0 ? 0 : 1;
}

