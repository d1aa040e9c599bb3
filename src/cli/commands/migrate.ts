import type { Command } from 'commander';
import type { InputOf, OutputOf } from '../../core/registry.js';
import type { Engine, Jsonified } from '../engine.js';
import type { GlobalOptions, Io } from '../io.js';
import { action, type ProgramState } from '../command-kit.js';
import { errorMessage } from '../inputs.js';
import { exitCodes, printResult, table, UsageError } from '../output.js';
import { choiceOption, choices, chosen, countOption, listOption } from '../choices.js';

/** A migration as a command sees it (every migrations operation answers one). */
type MigrationOut = Jsonified<OutputOf<'migrations.get'>>;

interface SourceOptions {
  from: string;
  mode?: string;
  apiKey?: string;
  apiUrl?: string;
  pageTypes?: string;
  collections?: string;
  mediaHosts?: string;
  locales?: string;
}

/** The source URL the migration reads: the stored one in the form the import reads it (absent: the default). */
async function sourceUrlOf(m: MigrationOut): Promise<string> {
  const { normaliseButterApiUrl } = await import('../../lib/buttercms-api-url.js');
  const { apiUrl } = m.config;
  return normaliseButterApiUrl(typeof apiUrl === 'string' ? apiUrl : undefined);
}

const finished = new Set(['completed', 'failed', 'paused']);
const pollMs = 500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const splitList = (value: string | undefined) => value?.split(',').map((s) => s.trim()).filter(Boolean);

/** The create input from flags; the key may come from BUTTERCMS_API_KEY, so it stays out of process lists. */
function createInput(opts: SourceOptions, io: Io): InputOf<'migrations.create'> {
  const apiKey = opts.apiKey ?? io.env.BUTTERCMS_API_KEY;
  if (!apiKey) throw new UsageError('Give the ButterCMS read token with --api-key, or in the BUTTERCMS_API_KEY environment variable');
  return {
    sourcePlatform: chosen(choices.migrationSources, opts.from, '--from'),
    mode: chosen(choices.migrationModes, opts.mode ?? 'full', '--mode'),
    config: {
      apiKey,
      ...(opts.apiUrl ? { apiUrl: opts.apiUrl } : {}),
      ...(opts.pageTypes ? { pageTypes: splitList(opts.pageTypes) } : {}),
      ...(opts.collections ? { collections: splitList(opts.collections) } : {}),
      ...(opts.mediaHosts ? { mediaHosts: splitList(opts.mediaHosts) } : {}),
      // Given empty, it is still sent: the core answers that at least one locale is needed.
      ...(opts.locales !== undefined ? { locales: splitList(opts.locales) } : {}),
    },
  };
}

function sourceOptions(cmd: Command): Command {
  return cmd
    .addOption(choiceOption('--from <platform>', 'the source CMS', choices.migrationSources).makeOptionMandatory())
    .addOption(choiceOption('--mode <mode>', 'dry_run changes nothing, schema_only imports the types, full and incremental everything', choices.migrationModes).default('full'))
    .option('--api-key <token>', 'the ButterCMS read token (or set BUTTERCMS_API_KEY)')
    .option('--api-url <url>', 'the ButterCMS API base, with or without /v2 (default https://api.buttercms.com/v2)')
    .option('--page-types <list>', 'comma-separated page types to read (ButterCMS cannot list them)')
    .option('--collections <list>', 'comma-separated collection keys to read (ButterCMS cannot list them)')
    .option('--media-hosts <list>', 'hosts besides cdn.buttercms.com whose URLs are media files')
    .option('--locales <list>', 'comma-separated ButterCMS locales to read, the first as the default (e.g. en,fr); none: read without a locale');
}

const progressText = (m: MigrationOut) => {
  const { phase, done, total } = m.progress;
  const count = total > 0 ? ` ${done}/${total}` : '';
  return `${m.status}${phase && phase !== m.status ? ` · ${phase}` : ''}${count}${m.pauseRequested && !finished.has(m.status) ? ' · pausing after this batch' : ''}`;
};

const statsText = (stats: Record<string, number>) =>
  Object.entries(stats).filter(([, v]) => v !== 0).map(([k, v]) => `${k} ${v}`).join(', ') || 'nothing';

function describe(m: MigrationOut): string {
  const lines = [`Migration ${m.id} (${m.sourcePlatform}, ${m.mode}): ${progressText(m)}`];
  if (Object.keys(m.stats).length) lines.push(`  ${statsText(m.stats)}`);
  if (m.error) lines.push(`  error: ${m.error}`);
  return lines.join('\n');
}

/** Progress while following: ora on a terminal; otherwise nothing, or plain lines with --progress. */
interface Display {
  update(m: MigrationOut): void;
  note(message: string): void;
  stop(m: MigrationOut | null): void;
}

async function createDisplay(io: Io, lines: boolean): Promise<Display> {
  const { Writable } = await import('node:stream');
  // ora draws on a real terminal stream; anything else gets plain lines.
  if (io.stderr.isTTY && io.stderr instanceof Writable) {
    const { default: ora } = await import('ora');
    const spinner = ora({ stream: io.stderr, text: 'starting' }).start();
    return {
      update: (m) => { spinner.text = progressText(m); },
      note: (message) => { spinner.clear(); io.stderr.write(`${message}\n`); spinner.render(); },
      stop: (m) => {
        if (!m) spinner.stop();
        else if (m.status === 'completed') spinner.succeed(progressText(m));
        else if (m.status === 'paused') spinner.warn(progressText(m));
        else if (m.status === 'failed') spinner.fail(progressText(m));
        else spinner.stop();
      },
    };
  }
  // Not a terminal (CI, a pipe): no progress (decisions §11) unless --progress asks for plain
  // lines; what Ctrl-C did is said either way.
  let last = '';
  return {
    update: (m) => {
      const text = progressText(m);
      if (lines && text !== last) io.stderr.write(`[migrate] ${text}\n`);
      last = text;
    },
    note: (message) => { io.stderr.write(`[migrate] ${message}\n`); },
    stop: () => {},
  };
}

/**
 * Watches a migration until it completes, fails or pauses. Ctrl-C asks it to pause (it stops
 * after the current batch); a second Ctrl-C stops waiting.
 */
async function follow(engine: Engine, id: string, io: Io, lines = false): Promise<MigrationOut> {
  const display = await createDisplay(io, lines);
  let interrupts = 0;
  const onInterrupt = () => {
    interrupts += 1;
    if (interrupts === 1) {
      display.note('Pausing after the current batch… (Ctrl-C again to stop waiting)');
      engine.run('migrations.pause', { id }).catch((e: unknown) => display.note(`Could not pause: ${errorMessage(e)}`));
    } else {
      display.note(engine.mode === 'local'
        ? 'Stopping now: the migration is marked failed; what was imported stays'
        : `Stopped waiting; the server keeps running it (cms migrate status ${id})`);
    }
  };
  process.on('SIGINT', onInterrupt);
  let current: MigrationOut | null = null;
  try {
    for (;;) {
      current = await engine.run('migrations.get', { id });
      display.update(current);
      if (interrupts > 1 && engine.stopMigrations) {
        // Stopped here: the record says so (failed) before it is printed.
        await engine.stopMigrations();
        current = await engine.run('migrations.get', { id });
        return current;
      }
      if (finished.has(current.status) || interrupts > 1) return current;
      await sleep(pollMs);
    }
  } finally {
    process.off('SIGINT', onInterrupt);
    display.stop(current);
  }
}

/** The final word on a followed migration: the record (one JSON document), and the exit code. */
function report(state: ProgramState, g: GlobalOptions, m: MigrationOut): void {
  const { io } = state;
  printResult(io, g, m, (r) => {
    const hint = r.status === 'completed' ? '' : `\nSee what happened: cms migrate logs ${r.id}`;
    return `${describe(r)}${hint}`;
  });
  if (m.status !== 'completed') {
    state.exitCode = exitCodes.failed;
    if (g.json) io.stderr.write(`Migration ${m.id} ended ${m.status}${m.error ? `: ${m.error}` : ''}\n`);
  }
}

export function registerMigrate(program: Command, state: ProgramState): void {
  const migrate = program.command('migrate').description('migrations from ButterCMS: schema, content and media, with a dry run first if you like');
  const { io } = state;

  sourceOptions(migrate.command('run'))
    .description('create a migration, start it and follow it to the end (Ctrl-C pauses it); for CI')
    .option('--progress', 'progress as plain lines on stderr when it is not a terminal (CI logs); a terminal always shows it')
    .action(action(state, async (g, opts: SourceOptions & { progress?: boolean }) => {
      const input = createInput(opts, io);
      const { withEngine } = await import('../engine.js');
      await withEngine(g, io, async (engine) => {
        const created = await engine.run('migrations.create', input);
        // Progress, on a terminal or with --progress (the id is in the final record, and in `cms migrate list`).
        if (io.stderr.isTTY) {
          io.stderr.write(`Created migration ${created.id}\n`);
          if (!g.json) io.stderr.write(`Reading ${await sourceUrlOf(created)}\n`);
        } else if (opts.progress) {
          io.stderr.write(`[migrate] created ${created.id}\n[migrate] reading ${await sourceUrlOf(created)}\n`);
        }
        await engine.run('migrations.start', { id: created.id });
        report(state, g, await follow(engine, created.id, io, !!opts.progress));
      });
    }));

  sourceOptions(migrate.command('create'))
    .description('create a migration (pending); start it with `cms migrate start <id>`')
    .action(action(state, async (g, opts: SourceOptions) => {
      const input = createInput(opts, io);
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('migrations.create', input));
      if (!g.json) io.stderr.write(`Reading ${await sourceUrlOf(data)}\n`);
      printResult(io, g, data, (m) => `Created migration ${m.id} (${m.mode}). Start it: cms migrate start ${m.id}`);
    }));

  migrate.command('start')
    .description('start a pending migration; without a running `cms serve` it runs here, in the foreground')
    .argument('<id>', 'migration id')
    .option('--follow', 'with a running server: follow it to the end')
    .action(action(state, async (g, id: string, opts: { follow?: boolean }) => {
      const { withEngine } = await import('../engine.js');
      await withEngine(g, io, async (engine) => {
        const started = await engine.run('migrations.start', { id });
        // Run here, the migration lives as long as this command does: follow it.
        if (engine.mode === 'local' || opts.follow) report(state, g, await follow(engine, id, io));
        else printResult(io, g, started, (m) => `Started migration ${m.id} on the server. Follow it: cms migrate status ${m.id}`);
      });
    }));

  migrate.command('status')
    .description('show a migration: status, progress, stats, error')
    .argument('<id>', 'migration id')
    .action(action(state, async (g, id: string) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('migrations.get', { id }));
      printResult(io, g, data, describe);
    }));

  migrate.command('pause')
    .description('pause a running migration after its current batch (it cannot be resumed)')
    .argument('<id>', 'migration id')
    .action(action(state, async (g, id: string) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('migrations.pause', { id }));
      printResult(io, g, data, (m) => `Pause requested for ${m.id}; it stops after the current batch.`);
    }));

  migrate.command('logs')
    .description('print a migration\'s log')
    .argument('<id>', 'migration id')
    .addOption(listOption('--level <levels>', 'only these levels, comma-separated', choices.logLevels))
    .addOption(countOption('--limit <n>', 'at most this many lines', 1).default('1000', '1000'))
    .action(action(state, async (g, id: string, opts: { level?: string; limit: string }) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('migrations.logs', { id, level: opts.level, limit: opts.limit }));
      printResult(io, g, data, (lines) =>
        lines.length ? lines.map((l) => `${l.createdAt}  ${l.level.padEnd(7)}  ${l.message}`).join('\n') : '(no log lines)');
    }));

  migrate.command('list')
    .description('list migrations, newest first')
    .action(action(state, async (g) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('migrations.list', {}));
      printResult(io, g, data, (rows) => table(io, rows.map((m) => ({
        id: m.id, mode: m.mode, status: m.status, progress: `${m.progress.phase} ${m.progress.done}/${m.progress.total}`, createdAt: m.createdAt,
      })), ['id', 'mode', 'status', 'progress', 'createdAt'],
      'No migrations yet. Try one: cms migrate run --from buttercms --mode dry_run (the read token in BUTTERCMS_API_KEY)'));
    }));

  migrate.command('delete')
    .description('delete a migration with its log and stored credentials (pause a running one first)')
    .argument('<id>', 'migration id')
    .action(action(state, async (g, id: string) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('migrations.delete', { id }));
      printResult(io, g, data, (r) => `Deleted migration ${r.id} and its stored credentials.`);
    }));
}
