import type { CmsConfig } from '../config.js';
import { CmsError } from '../core/errors.js';
import { isPostgresUrl } from '../db/client.js';
import { randomToken } from '../lib/crypto.js';
import { createCms } from '../runtime.js';
import { createLogger } from '../logging.js';
import { acquireDbLock, readServerInfo, writeServerInfo } from './engine.js';
import { errorMessage } from './inputs.js';
import type { GlobalOptions, Io } from './io.js';

const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * `cms serve`: holds the data folder (PGlite allows one process), writes where CLI commands can
 * reach it, serves until SIGINT/SIGTERM, then lets in-flight requests finish and exits 0.
 */
export async function serve(config: CmsConfig, io: Io, globals: GlobalOptions): Promise<void> {
  const embedded = !isPostgresUrl(config.databaseUrl);
  let release: (() => void) | null = null;
  if (embedded) {
    const running = readServerInfo(config.dataDir);
    if (running) {
      throw new CmsError('SERVER_BUSY',
        `cms serve is already running on ${config.dataDir} (pid ${running.pid}, ${running.url}). ` +
        'Use that one (CLI commands reach it by themselves), stop it first, or give this one another data folder (CMS_DATA_DIR).');
    }
    release = await acquireDbLock(config.dataDir, 'cms serve');
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
    const { startServer } = await import('../http/node-server.js');
    const server = await startServer(cms, { port: config.port, host: config.host, cliToken: token });
    cleanup.push(() => server.close());
    // With port 0 (or no base URL configured) links and the CSRF origin check follow the real address.
    if (!config.baseUrlSet) config.baseUrl = server.url;
    const { startJobs } = await import('../background-jobs.js');
    const jobs = startJobs(cms);
    // Stopped after the server: requests in flight may still enqueue work, which the last pass sees.
    cleanup.splice(1, 0, () => jobs.stop());
    if (embedded) {
      cleanup.push(writeServerInfo(config.dataDir, { pid: process.pid, url: server.url, token, startedAt: new Date().toISOString() }));
    }
    if (globals.json) io.stdout.write(JSON.stringify({ data: { url: server.url, pid: process.pid } }) + '\n');
    else io.stdout.write(`cms serving project "${config.project}" at ${server.url}\n`);

    if (!stopRequested) await new Promise<void>((resolve) => { wake = resolve; });
    if (config.drainMs > 0) {
      // Load balancers see /readyz answer 503 and stop sending requests; those sent meanwhile are served.
      server.drain();
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
