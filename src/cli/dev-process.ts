import { existsSync, mkdirSync, readFileSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { CmsConfig } from '../config.js';
import { isCmsError } from '../core/errors.js';
import type { Cms } from '../runtime.js';
import { errorMessage } from './inputs.js';
import type { GlobalOptions, Io } from './io.js';
import { readSchemaFiles } from './schema-files.js';
import { hostEngine } from './server-process.js';

export interface DevOptions {
  open: boolean;
  https: boolean;
}

/**
 * `cms dev` (docs/cli-dev.md): `cms serve` for a developer's machine. listhen listens (and makes
 * a self-signed certificate for --https, opens the browser for --open); the schemas folder is
 * watched and pushed on every change, the types file rewritten when `types.out` is configured.
 */
export async function dev(config: CmsConfig, io: Io, globals: GlobalOptions, options: DevOptions): Promise<void> {
  await hostEngine(config, io, globals, {
    command: 'cms dev',
    busyAdvice: 'Stop it first, then run cms dev.',
    // CLI commands run meanwhile go through this server's bridge (plain http only: they would not trust the self-signed certificate).
    bridge: !options.https,
    async listen(cms, cliToken) {
      const { createRequestHandler, listenError } = await import('../http/node-server.js');
      const { handler } = createRequestHandler(cms, { cliToken });
      const { listen } = await import('listhen');
      // The port asked for, or an error as `cms serve` gives one: listhen would otherwise move to
      // a free port between 3000 and 3100, and say so on standard output (the --json document's).
      const port = config.port === 0 ? 0 : { port: config.port, alternativePortRange: [config.port, config.port] as [number, number], random: false, verbose: false };
      const listener = await listen((req, res) => { void handler(req, res); }, {
        port, hostname: config.host, https: options.https, open: options.open,
        showURL: false, qr: false, autoClose: false, public: false,
      }).catch(async (e: unknown) => { throw listenError(await whyNotListening(config.port, config.host) ?? e, config.port, config.host); });
      return { url: listener.url.replace(/\/+$/, ''), close: () => listener.close() };
    },
    async started(cms, url, cleanup) {
      const say = (line: string) => io.stderr.write(`${line}\n`);
      const pusher = schemaPusher(cms, config, io, say);
      await pusher.push();
      const watcher = watchFolder(config.schemasDir, () => { void pusher.push(); });
      cleanup.push(() => watcher?.close());
      if (globals.json) {
        io.stdout.write(JSON.stringify({ data: { url, api: `${url}/api/v1`, admin: `${url}/admin/`, docs: `${url}/api/docs`, pid: process.pid } }) + '\n');
      } else {
        io.stdout.write([
          `cms dev: project "${config.project}" at ${url}`,
          `  API:           ${url}/api/v1`,
          `  Admin:         ${url}/admin/`,
          `  API reference: ${url}/api/docs`,
          `  Watching ${relative(io.cwd, config.schemasDir) || config.schemasDir}/ (pushed on every change)${config.typesOut ? `; types in ${relative(io.cwd, config.typesOut)}` : ''}`,
          '',
        ].join('\n'));
      }
    },
  });
}

/** The error listening on the port gives (listhen's own says only that it found no port), or null if it can now. */
async function whyNotListening(port: number, host: string): Promise<unknown> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', resolve);
    probe.listen(port, host, () => probe.close(() => resolve(null)));
  });
}

/** Watches a folder and its subfolders; a burst of changes (an editor's save) calls `fn` once. */
function watchFolder(folder: string, fn: () => void): FSWatcher | null {
  if (!existsSync(folder)) mkdirSync(folder, { recursive: true });
  let timer: NodeJS.Timeout | null = null;
  return watch(folder, { recursive: true }, (_event, name) => {
    if (name && !String(name).endsWith('.json')) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(fn, 150);
  });
}

/**
 * Pushes the schema files (what `cms schema push` does, without --force: a type with content is
 * never dropped), one push at a time; a change during a push pushes again after it. A file with
 * problems is reported with its file and JSON paths and nothing is applied: the last good schema
 * keeps answering.
 */
function schemaPusher(cms: Cms, config: CmsConfig, io: Io, say: (line: string) => void) {
  let running: Promise<void> | null = null;
  let again = false;
  // An editor's save may come as several events: the same problems are told once.
  let lastProblems = '';
  const report = (lines: string[]) => {
    const text = lines.join('\n');
    if (text !== lastProblems) say(text);
    lastProblems = text;
  };
  const as = { actor: { kind: 'terminal' }, project: config.project } as const;
  async function once(): Promise<void> {
    const read = readSchemaFiles(config.schemasDir, io.cwd);
    if (read.unreadable.length) {
      report([`schema: ${read.unreadable.length} file problem(s); the last good schema stays:`, ...read.unreadable.map((u) => `  ${u.file}: ${u.path}: ${u.message}`)]);
      return;
    }
    try {
      const plan = await cms.run('schema.push', { ...read.documents, force: false }, as);
      lastProblems = '';
      const changed = plan.create.length + plan.update.length + plan.delete.length;
      if (changed) {
        say(`schema pushed: ${[...plan.create.map((c) => `+ ${c.kind}/${c.slug}`), ...plan.update.map((u) => `~ ${u.kind}/${u.slug}`), ...plan.delete.map((d) => `- ${d.kind}/${d.slug}`)].join(', ')}`);
      }
      if (config.typesOut) await writeTypes(cms, config.typesOut, as, say, io);
    } catch (e) {
      if (!isCmsError(e)) throw e;
      const lines = [`schema not pushed (${e.code}); the last good schema stays:`];
      const issues: unknown[] = Array.isArray(e.details) ? e.details : [];
      if (issues.length === 0) lines.push(`  ${e.message}`);
      for (const issue of issues) {
        const i = typeof issue === 'object' && issue !== null ? issue : {};
        const file = 'file' in i && typeof i.file === 'string' ? i.file : '';
        const path = 'path' in i && typeof i.path === 'string' ? i.path : '';
        const message = 'message' in i && typeof i.message === 'string' ? i.message : String(issue);
        lines.push(`  ${[file, path].filter(Boolean).join(': ')}${file || path ? ': ' : ''}${message}`);
      }
      report(lines);
    }
  }
  return {
    push(): Promise<void> {
      if (running) { again = true; return running; }
      running = (async () => {
        do {
          again = false;
          try { await once(); } catch (e) { say(`schema push failed: ${errorMessage(e)}`); }
        } while (again);
        running = null;
      })();
      return running;
    },
  };
}

async function writeTypes(cms: Cms, out: string, as: { actor: { kind: 'terminal' }; project: string }, say: (line: string) => void, io: Io): Promise<void> {
  const { text } = await cms.run('schema.typescript', {}, as);
  const before = existsSync(out) ? readFileSync(out, 'utf8') : null;
  if (before === text) return;
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  say(`types written: ${relative(io.cwd, out) || out}`);
}
