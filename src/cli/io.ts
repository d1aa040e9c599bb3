/** What a command may touch of the outside; tests hand in their own. */
export interface Io {
  stdout: { write(s: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  stdinIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const processIo = (): Io => ({
  stdout: process.stdout,
  stderr: process.stderr,
  stdinIsTTY: !!process.stdin.isTTY,
  env: process.env,
  cwd: process.cwd(),
});

/** A command's own options, without the global ones every command also accepts (see main.ts). */
export function ownOptions(opts: Record<string, unknown>): Record<string, unknown> {
  const { json: _json, config: _config, project: _project, ...own } = opts;
  return own;
}

export interface GlobalOptions {
  json?: boolean;
  config?: string;
  project?: string;
}
