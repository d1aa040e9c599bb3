import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const binPath = fileURLToPath(new URL('../../bin/cms.mjs', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (for --json runs). */
  json<T = any>(): T;
}

/** Runs the built CLI (`npm run build` first) as a child process. */
export function runCli(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } ): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      cwd: options.cwd,
      env: { ...process.env, CI: 'true', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
    const child = spawn(process.execPath, [binPath, 'serve', '--port', '0', ...args], {
      cwd: options.cwd,
      env: { ...process.env, CI: 'true', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
