import type { CmsConfig } from '../config.js';
import { CmsError } from '../core/errors.js';
import { isPostgresUrl } from '../db/client.js';
import { randomToken } from '../lib/crypto.js';
import { createCms, type Cms } from '../runtime.js';
import { createLogger } from '../logging.js';
import { acquireDbLock, readServerInfo, writeServerInfo } from './engine.js';
import { errorMessage } from './inputs.js';
import type { GlobalOptions, Io } from './io.js';

const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** What a command that hosts the engine listens with. */
export interface Listener {
  url: string;
  close(): Promise<void> | void;
  /** Makes /readyz answer 503 while requests are still served (before a stop). */
  drain?(): void;
}

export interface HostOptions {
  /** The command, for the data folder's lock and messages: `cms serve`, `cms dev`. */
  command: string;
  /** What to do when another server holds the data folder. */
  busyAdvice: string;
  listen(cms: Cms, cliToken: string): Promise<Listener>;
  /** Whether CLI commands run meanwhile reach this process (the data folder's server file). */
  bridge: boolean;
  /** Called once listening with the jobs running: prints what the command prints, adds cleanup. */
  started(cms: Cms, url: string, cleanup: Array<() => Promise<void> | void>): Promise<void>;
}

/**
 * Hosts the engine until SIGINT/SIGTERM/SIGHUP (`cms serve`, `cms dev`): holds the data folder
 * (PGlite allows one process), logs to standard error, runs the background jobs, lets CLI commands
 * reach it, then drains, lets in-flight requests finish and closes everything in reverse order.
 */
export async function hostEngine(config: CmsConfig, io: Io, globals: GlobalOptions, options: HostOptions): Promise<void> {
  const embedded = !isPostgresUrl(config.databaseUrl);
  let release: (() => void) | null = null;
  if (embedded) {
    const running = readServerInfo(config.dataDir);
    if (running) {
      throw new CmsError('SERVER_BUSY', `cms serve is already running on ${config.dataDir} (pid ${running.pid}, ${running.url}). ${options.busyAdvice}`);
    }
    release = await acquireDbLock(config.dataDir, options.command);
  }
  // Undone in reverse order: first no new CLI commands, then no new requests, then the jobs, the database.
  const cleanup: Array<() => Promise<void> | void> = [];
  // Signals that arrive while starting up stop the server as soon as it is up.
  let stopRequested = false;
  let wake: (() => void) | null = null;
  const stop = () => {
    stopRequested = true;
    wake?.();
  };
  for (const s of stopSignals) process.on(s, stop);
  let flushLog = (): void => {};
  try {
    // Log lines (requests, jobs, warnings) go to standard error: JSON, or pretty on a terminal
    // (docs/operating.md). Standard output is the command's own: the URL line, or --json's document.
    const log = await createLogger({ level: config.logLevel, pretty: process.stderr.isTTY === true });
    flushLog = log.flush;
    const cms = await createCms(config, { log });
    cleanup.push(() => cms.close());
    const token = randomToken(32);
    const listener = await options.listen(cms, token);
    cleanup.push(() => listener.close());
    // With port 0 (or no base URL configured) links and the CSRF origin check follow the real address.
    if (!config.baseUrlSet) config.baseUrl = listener.url;
    const { startJobs } = await import('../background-jobs.js');
    const jobs = startJobs(cms);
    // Stopped after the server: requests in flight may still enqueue work, which the last pass sees.
    cleanup.splice(1, 0, () => jobs.stop());
    if (embedded && options.bridge) {
      cleanup.push(writeServerInfo(config.dataDir, { pid: process.pid, url: listener.url, token, startedAt: new Date().toISOString() }));
    }
    await options.started(cms, listener.url, cleanup);

    if (!stopRequested) await new Promise<void>((resolve) => { wake = resolve; });
    if (config.drainMs > 0 && listener.drain) {
      // Load balancers see /readyz answer 503 and stop sending requests; those sent meanwhile are served.
      listener.drain();
      if (!globals.json) io.stderr.write(`Draining: /readyz answers 503 for ${config.drainMs} ms before the server stops taking requests…\n`);
      await new Promise((resolve) => setTimeout(resolve, config.drainMs));
    }
    if (!globals.json) io.stderr.write('Shutting down: finishing requests in flight…\n');
  } finally {
    for (const fn of cleanup.reverse()) {
      try { await fn(); } catch (e) { io.stderr.write(`shutdown: ${errorMessage(e)}\n`); }
    }
    // The last log lines (the shutdown's own) are written before the process ends.
    flushLog();
    release?.();
    for (const s of stopSignals) process.off(s, stop);
  }
}

/**
 * `cms serve`: the engine as the HTTP server, until SIGINT/SIGTERM; prints the URL it listens on.
 */
export async function serve(config: CmsConfig, io: Io, globals: GlobalOptions): Promise<void> {
  await hostEngine(config, io, globals, {
    command: 'cms serve',
    busyAdvice: 'Use that one (CLI commands reach it by themselves), stop it first, or give this one another data folder (CMS_DATA_DIR).',
    bridge: true,
    async listen(cms, cliToken) {
      const { startServer } = await import('../http/node-server.js');
      return startServer(cms, { port: config.port, host: config.host, cliToken });
    },
    async started(_cms, url) {
      if (globals.json) io.stdout.write(JSON.stringify({ data: { url, pid: process.pid } }) + '\n');
      else io.stdout.write(`cms serving project "${config.project}" at ${url}\n`);
    },
  });
}
