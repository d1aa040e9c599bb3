import type { Command } from 'commander';
import { action, type ProgramState } from '../command-kit.js';
import { hostOption, portOption } from '../choices.js';

/** `cms dev`: `cms serve` for a developer's machine (docs/cli-dev.md). */
export function registerDev(program: Command, state: ProgramState): void {
  const { io } = state;
  program.command('dev')
    .description('serve for development: push schemas/ on every change, regenerate types (types.out), print the URLs; --open, --https')
    .addOption(portOption('port to listen on (default: PORT, the config, else 3000; listhen takes the next free one when it is taken)'))
    .addOption(hostOption('address to listen on (default: HOST, the config, else 127.0.0.1)'))
    .option('--open', 'open the admin in the browser')
    .option('--https', 'serve over https with a self-signed certificate for this machine')
    .action(action(state, async (g, opts: { port?: string; host?: string; open?: boolean; https?: boolean }) => {
      const { loadConfig } = await import('../../config.js');
      const config = loadConfig({
        cwd: io.cwd, configFile: g.config, env: io.env, project: g.project,
        port: opts.port === undefined ? undefined : Number(opts.port), host: opts.host,
      });
      const { dev } = await import('../dev-process.js');
      await dev(config, io, g, { open: opts.open === true, https: opts.https === true });
    }));
}
