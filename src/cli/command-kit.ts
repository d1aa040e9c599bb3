import type { Command } from 'commander';
import { isCmsError } from '../core/errors.js';
import type { GlobalOptions, Io } from './io.js';
import { exitCodes, printError, UsageError } from './output.js';

/**
 * What every command module needs from the program: its state and the action wrapper. Kept apart
 * from main.ts (which registers the commands), so no command imports the module that imports it.
 */
export interface ProgramState {
  io: Io;
  exitCode: number;
}

/** The global options as commander parsed them (`--json`, `--config`, `--project`). */
export function globalsOf(opts: Record<string, unknown>): GlobalOptions {
  return {
    ...(opts.json === true ? { json: true } : {}),
    ...(typeof opts.config === 'string' ? { config: opts.config } : {}),
    ...(typeof opts.project === 'string' ? { project: opts.project } : {}),
  };
}

/** Wraps a command action: errors become a code on stderr and an exit code, never a throw. */
export function action<A extends unknown[]>(state: ProgramState, fn: (globals: GlobalOptions, ...args: A) => Promise<void>) {
  return async function (this: Command, ...args: A) {
    const globals = globalsOf(this.optsWithGlobals());
    try {
      await fn(globals, ...args);
    } catch (e) {
      state.exitCode = reportError(state.io, globals, e);
    }
  };
}

/** A configuration error, told by its name: config.ts loads zod, which `cms --version` does not need. */
const isConfigError = (e: unknown): e is Error => e instanceof Error && e.name === 'ConfigError';

export function reportError(io: Io, globals: GlobalOptions, e: unknown): number {
  if (e instanceof UsageError) {
    printError(io, globals, 'USAGE', e.message);
    return exitCodes.usage;
  }
  if (isCmsError(e)) {
    printError(io, globals, e.code, e.message, e.details);
    return exitCodes.failed;
  }
  if (isConfigError(e)) {
    printError(io, globals, 'CONFIG', e.message);
    return exitCodes.failed;
  }
  printError(io, globals, 'INTERNAL', `Unexpected error: ${e instanceof Error ? e.message : String(e)}`);
  if (io.env.CMS_DEBUG) io.stderr.write(`${e instanceof Error ? e.stack ?? '' : ''}\n`);
  return exitCodes.failed;
}
