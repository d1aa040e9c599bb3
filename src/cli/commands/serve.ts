import type { Command } from 'commander';
import { action, type ProgramState } from '../command-kit.js';
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
