export declare const binPath: string;
export interface CliResult {
    code: number | null;
    stdout: string;
    stderr: string;
    /** stdout parsed as JSON (for --json runs). */
    json<T = any>(): T;
}
/** Runs the built CLI (`npm run build` first) as a child process. */
export declare function runCli(args: string[], options: {
    cwd: string;
    env?: NodeJS.ProcessEnv;
    timeoutMs?: number;
}): Promise<CliResult>;
/** Starts `cms serve` as a child process and resolves once it prints its URL. */
export declare function startCliServer(args: string[], options: {
    cwd: string;
    env?: NodeJS.ProcessEnv;
}): Promise<{
    url: string;
    stop(signal?: NodeJS.Signals): Promise<{
        code: number | null;
        stderr: string;
        stdout: string;
    }>;
    pid: number;
}>;
