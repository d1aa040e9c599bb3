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
    const options = this.optsWithGlobals();
    const globals = globalsOf(options);
    try {
      // An empty value would be taken as none given: the search upwards, the default project.
      for (const name of ['config', 'project'] as const) {
        if (options[name] === '') throw new UsageError(`--${name} needs a value`);
      }
      await fn(globals, ...args);
    } catch (e) {
      state.exitCode = reportError(state.io, globals, e);
    }
  };
}

/** A configuration error, told by its name: config.ts loads zod, which `cms --version` does not need. */
const isConfigError = (e: unknown): e is Error => e instanceof Error && e.name === 'ConfigError';

const fileProblems: Record<string, string> = {
  ENOENT: 'does not exist', EEXIST: 'is in the way (a file where a folder should be)', ENOTDIR: 'is a file where a folder should be',
  EISDIR: 'is a folder where a file should be', EACCES: 'may not be used (permission denied)', EPERM: 'may not be used (permission denied)',
  ENOSPC: 'cannot be written: the disk is full', EROFS: 'is on a read-only file system',
};
const databaseProblems = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'CONNECT_TIMEOUT', 'ECONNRESET']);
// PostgreSQL's own: no such database, no such role, a wrong password, no access.
const databaseStates = new Set(['3D000', '28000', '28P01', '42501']);

/**
 * The machine's set-up, not the program, at fault: a path that cannot be used (a data folder that
 * is a file, a missing folder, no permission) or a database that cannot be reached. Told in plain
 * words as CONFIG (exit 1), not as an unexpected INTERNAL error.
 */
function setupProblem(error: unknown): string | null {
  // A query's failure comes wrapped (drizzle's error, its cause the driver's).
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    if (!('code' in e) || typeof e.code !== 'string') continue;
    const { code } = e;
    const path = 'path' in e && typeof e.path === 'string' ? e.path : null;
    if (path && fileProblems[code]) return `${path} ${fileProblems[code]} (${code})`;
    if (databaseProblems.has(code) || databaseStates.has(code)) return `Cannot use the database DATABASE_URL names: ${e.message}`;
  }
  return null;
}

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
  const setup = setupProblem(e);
  if (setup) {
    printError(io, globals, 'CONFIG', setup);
    return exitCodes.failed;
  }
  printError(io, globals, 'INTERNAL', `Unexpected error: ${e instanceof Error ? e.message : String(e)}`);
  if (io.env.CMS_DEBUG) io.stderr.write(`${e instanceof Error ? e.stack ?? '' : ''}\n`);
  return exitCodes.failed;
}
