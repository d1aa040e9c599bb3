import type { CmsConfig } from '../config.js';
import { CmsError } from '../core/errors.js';
import { isPostgresUrl } from '../db/client.js';
import { randomToken } from '../lib/crypto.js';
import { consoleLogger, createCms } from '../runtime.js';
import { acquireDbLock, readServerInfo, writeServerInfo } from './engine.js';
import type { GlobalOptions, Io } from './io.js';

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
      throw new CmsError('SERVER_BUSY', `cms serve is already running on this data folder (pid ${running.pid}, ${running.url}); stop it first or use another folder`);
    }
    release = await acquireDbLock(config.dataDir, 'cms serve');
  }
  let cleanup: Array<() => Promise<void> | void> = [];
  try {
    const cms = await createCms(config, { log: consoleLogger });
    cleanup.push(() => cms.close());
    const { startServer } = await import('../http/serve.js');
    const token = randomToken(32);
    const server = await startServer(cms, { port: config.port, host: config.host, cliToken: token });
    cleanup.unshift(() => server.close());
    const { startJobs } = await import('../jobs.js');
    const jobs = startJobs(cms);
    cleanup.unshift(() => jobs.stop());
    if (embedded) {
      const removeInfo = writeServerInfo(config.dataDir, { pid: process.pid, url: server.url, token, startedAt: new Date().toISOString() });
      cleanup.push(removeInfo);
    }
    if (globals.json) io.stdout.write(JSON.stringify({ data: { url: server.url, pid: process.pid } }) + '\n');
    else io.stdout.write(`cms serving project "${config.project}" at ${server.url}\n`);

    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    if (!globals.json) io.stderr.write('Shutting down: finishing requests in flight…\n');
  } finally {
    for (const fn of cleanup) {
      try { await fn(); } catch (e) { io.stderr.write(`shutdown: ${(e as Error).message}\n`); }
    }
    cleanup = [];
    release?.();
  }
}
