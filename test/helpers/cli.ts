import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Io } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';

/**
 * The one way tests run the CLI: in this process (`runCliInProcess`: the program with a captured
 * Io, fast, on the source) or as a child process of the built CLI (`runCli`, `spawnCli`,
 * `startCliServer`: `npm run build` first), for the end-to-end paths.
 */

export const binPath = fileURLToPath(new URL('../../bin/cms.mjs', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (for --json runs). */
  json<T = any>(): T;
}

/**
 * Runs `cms ...args` in this process with stdout and stderr captured. `env` is the whole
 * environment the command sees (nothing of this process's); stdin is not a terminal.
 */
export async function runCliInProcess(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: { write: (s: string) => { stdout += s; return true; } },
    stderr: { write: (s: string) => { stderr += s; return true; } },
    stdinIsTTY: false,
    readStdin: async () => '',
    env: options.env ?? {},
    cwd: options.cwd,
  };
  const code = await run(['node', 'cms', ...args], io);
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}

/**
 * Starts the built CLI as a child process, stdin ignored, stdout and stderr piped; `env` is laid over this
 * process's environment (a member set to undefined is left out), with CI=true (no spinners).
 */
export function spawnCli(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, [binPath, ...args], { cwd: options.cwd, env: cliEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
}

const cliEnv = (env: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv => ({ ...process.env, CI: 'true', ...env });

/** Runs the built CLI as a child process until it exits; `input`, when given, is its standard input. */
export function runCli(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; input?: string } ): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let child: ChildProcessByStdio<null, Readable, Readable> | ChildProcessByStdio<Writable, Readable, Readable>;
    if (options.input === undefined) child = spawnCli(args, options);
    else {
      const piped = spawn(process.execPath, [binPath, ...args], { cwd: options.cwd, env: cliEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
      piped.stdin.end(options.input);
      child = piped;
    }
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`cms ${args.join(' ')} timed out\n${stderr}`)); }, options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, json: () => JSON.parse(stdout) });
    });
  });
}

/** Starts `cms serve` as a child process and resolves once it prints its URL. */
export function startCliServer(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<{ url: string; stop(signal?: NodeJS.Signals): Promise<{ code: number | null; stderr: string; stdout: string }>; pid: number }> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(['serve', '--port', '0', ...args], options);
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`cms serve did not start\n${stderr}`)); }, 60_000);
    const exited = new Promise<{ code: number | null; stderr: string; stdout: string }>((res) => child.on('close', (code) => res({ code, stderr, stdout })));
    child.stderr.on('data', (d) => { stderr += d; });
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /(http:\/\/[^\s"]+)/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1]!,
          pid: child.pid!,
          stop: async (signal = 'SIGTERM') => { child.kill(signal); return exited; },
        });
      }
    });
    child.on('close', (code) => { clearTimeout(timer); reject(new Error(`cms serve exited with ${code}\n${stderr}`)); });
  });
}
