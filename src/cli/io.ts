/** What a command may touch of the outside; tests hand in their own. */
export interface Io {
  stdout: { write(s: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  stdinIsTTY: boolean;
  /** Standard input, read to its end (`--fields @-`); it can be read once. */
  readStdin(): Promise<string>;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const processIo = (): Io => {
  let read = false;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: !!process.stdin.isTTY,
    async readStdin() {
      if (read) throw new Error('standard input was already read by another option');
      read = true;
      let text = '';
      process.stdin.setEncoding('utf8');
      for await (const chunk of process.stdin) text += String(chunk);
      return text;
    },
    env: process.env,
    cwd: process.cwd(),
  };
};

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
