// CLI start-up: a command on an initialised folder with no server running (`cms keys list`,
// `cms pages list`) against a bare PGlite open of the same folder (a node process that only opens
// PGlite there, runs `select 1` and closes it), and `cms --version` against `node -e 0`. Every
// process is started fresh, the kinds interleaved run by run; the figures are medians.
// The CLI compiles PGlite's WebAssembly with V8's baseline compiler only (--liftoff-only) for
// short commands; the target rows compare it with a bare open under Node's defaults, and one more
// row, for information, with a bare open under the same flag.
// `runStartupBench()` returns the rows for the main bench; run alone it prints them.
//
//   node bench/startup.mjs [--runs 9]
//
// Runs the built CLI (`npm run build` first) in a temporary folder made by `cms init --yes`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const cli = fileURLToPath(new URL('../bin/cms.mjs', import.meta.url));
const pglite = import.meta.resolve('@electric-sql/pglite');

/** Wall time of one fresh process, in ms; throws when it fails. */
function timed(args, cwd) {
  const started = performance.now();
  const res = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const ms = performance.now() - started;
  if (res.status !== 0) throw new Error(`node ${args.join(' ')} failed (${res.status}): ${res.stderr}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * @param {{ runs?: number, log?: (m: string) => void }} [options]
 * @returns {Promise<Array<{ scenario: string, medianMs: number, baseline: string, baselineMedianMs: number, ratio: number, target: string, runs: number, loadavg: number[] }>>}
 */
export async function runStartupBench(options = {}) {
  const runs = options.runs ?? 9;
  const log = options.log ?? (() => {});
  const dir = mkdtempSync(join(tmpdir(), 'cms-bench-startup-'));
  try {
    timed([cli, 'init', '--yes'], dir);
    const bare = `import { PGlite } from ${JSON.stringify(pglite)};
const db = new PGlite(${JSON.stringify(join(dir, '.cms', 'db'))});
await db.waitReady;
await db.query('select 1');
await db.close();`;
    const kinds = {
      bare: ['--input-type=module', '-e', bare],
      bareLiftoff: ['--liftoff-only', '--input-type=module', '-e', bare],
      keysList: [cli, 'keys', 'list'],
      pagesList: [cli, 'pages', 'list'],
      nodeOnly: ['-e', '0'],
      version: [cli, '--version'],
    };
    // One of each first: files in the page cache, the folder's database checkpointed once.
    for (const args of Object.values(kinds)) timed(args, dir);
    const times = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
    for (let i = 0; i < runs; i++) {
      for (const [kind, args] of Object.entries(kinds)) times[kind].push(timed(args, dir));
    }
    const load = loadavg().map((l) => Number(l.toFixed(2)));
    const row = (scenario, kind, baseline, baseKind, target) => ({
      scenario,
      medianMs: Math.round(median(times[kind])),
      baseline,
      baselineMedianMs: Math.round(median(times[baseKind])),
      ratio: Number((median(times[kind]) / median(times[baseKind])).toFixed(2)),
      target,
      runs,
      loadavg: load,
    });
    const rows = [
      row('cms keys list (no server)', 'keysList', 'bare PGlite open + select 1 + close', 'bare', 'ratio ≤ 1.5'),
      row('cms pages list (no server)', 'pagesList', 'bare PGlite open + select 1 + close', 'bare', 'ratio ≤ 1.5'),
      row('cms pages list (no server), information', 'pagesList', 'bare PGlite open + select 1 + close, node --liftoff-only', 'bareLiftoff', 'none (the same compiler on both sides)'),
      row('cms --version', 'version', 'node -e 0', 'nodeOnly', '< 150 ms'),
    ];
    for (const r of rows) log(`${r.scenario}: ${r.medianMs} ms vs ${r.baseline} ${r.baselineMedianMs} ms (${r.ratio}×), load ${load.join(' ')}`);
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' } } });
  const rows = await runStartupBench({ runs: Number(values.runs), log: (m) => console.error(m) });
  console.log(JSON.stringify(rows, null, 2));
}
