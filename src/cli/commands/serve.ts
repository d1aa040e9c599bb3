import type { Command } from 'commander';
import { action, type ProgramState } from '../command-kit.js';
import { UsageError } from '../output.js';
import { hostOption, portOption } from '../choices.js';

export function registerServe(program: Command, state: ProgramState): void {
  const { io } = state;
  program.command('serve')
    .description('start the HTTP API (and the webhook dispatcher and scheduler) until SIGINT or SIGTERM')
    .addOption(portOption('port to listen on (default: PORT, the config, else 3000)'))
    .addOption(hostOption('address to listen on (default: HOST, the config, else 127.0.0.1)'))
    .action(action(state, async (g, opts: { port?: string; host?: string }) => {
      const { loadConfig } = await import('../../config.js');
      const config = loadConfig({
        cwd: io.cwd, configFile: g.config, env: io.env, project: g.project,
        port: opts.port === undefined ? undefined : Number(opts.port), host: opts.host,
      });
      const { serve } = await import('../server-process.js');
      await serve(config, io, g);
    }));
}

/**
 * `cms stop`: ends the `cms serve` (or `cms dev`) that holds this folder's embedded database, as
 * SIGTERM does (requests in flight finish), and waits until it has ended. For scripts: `kill %1`
 * after `npx cms serve &` ends only npx's wrapper there, not the server under it.
 */
export function registerStop(program: Command, state: ProgramState): void {
  const { io } = state;
  program.command('stop')
    .description('stop the cms serve (or cms dev) running on this folder\'s embedded database, and wait until it has ended')
    .option('--timeout <seconds>', 'how long to wait for it to end (default 30)', '30')
    .action(action(state, async (g, opts: { timeout: string }) => {
      const timeoutMs = Number(opts.timeout) * 1000;
      if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new UsageError('--timeout must be a number of seconds above 0');
      const { loadConfig } = await import('../../config.js');
      const { readServerInfo, isAlive } = await import('../engine.js');
      const { isPostgresUrl } = await import('../../db/client.js');
      const { printResult } = await import('../output.js');
      const { CmsError } = await import('../../core/errors.js');
      const config = loadConfig({ cwd: io.cwd, configFile: g.config, env: io.env, project: g.project });
      const running = readServerInfo(config.dataDir);
      if (!running) {
        const why = isPostgresUrl(config.databaseUrl)
          ? ' (on PostgreSQL a server keeps no record in the folder: stop it with Ctrl-C or SIGTERM)'
          : '';
        printResult(io, g, { stopped: false, dataDir: config.dataDir }, () => `No cms serve is running on ${config.dataDir}${why}`);
        return;
      }
      try {
        process.kill(running.pid, 'SIGTERM');
      } catch (e) {
        if (isAlive(running.pid)) throw e;
      }
      const deadline = Date.now() + timeoutMs;
      while (isAlive(running.pid)) {
        if (Date.now() > deadline) {
          throw new CmsError('SERVER_BUSY', `cms serve (pid ${running.pid}) was asked to stop but is still running after ${opts.timeout} s; it may be finishing long requests (try again), or stop it with kill -9 ${running.pid}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      printResult(io, g, { stopped: true, pid: running.pid, url: running.url }, () => `Stopped cms serve (pid ${running.pid}, ${running.url})`);
    }));
}
