import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, type CmsConfig } from '../config.js';
import { CmsError, errorCodes, type ErrorCode } from '../core/errors.js';
import type { OperationName } from '../core/registry.js';
import { isPostgresUrl } from '../db/client.js';
import type { GlobalOptions, Io } from './io.js';

/** How a command reaches the engine: in this process, or through a running `cms serve`. */
export interface Engine {
  mode: 'local' | 'server';
  config: CmsConfig;
  run(op: OperationName, input: unknown): Promise<unknown>;
  close(): Promise<void>;
}

export interface ServerLockInfo {
  pid: number;
  url: string;
  token: string;
  startedAt: string;
}

export const serverFile = (dataDir: string) => join(dataDir, 'server.json');
export const dbLockFile = (dataDir: string) => join(dataDir, 'db.lock');

export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readServerInfo(dataDir: string): ServerLockInfo | null {
  try {
    const info = JSON.parse(readFileSync(serverFile(dataDir), 'utf8')) as ServerLockInfo;
    return isAlive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * PGlite lets one process open a data folder. This lock file says which one has it; a lock
 * whose process died is taken over. Waits a while for a short command to finish first.
 */
export async function acquireDbLock(dataDir: string, purpose: string, waitMs = 15_000): Promise<() => void> {
  const got = await acquireDbLockUnless(dataDir, purpose, waitMs, () => false);
  return got!;
}

/**
 * Like acquireDbLock, but stops waiting (and answers null) as soon as `giveUp` says so: a CLI
 * command that finds `cms serve` starting up waits for it to be ready, then goes through it.
 */
async function acquireDbLockUnless(dataDir: string, purpose: string, waitMs: number, giveUp: () => boolean): Promise<(() => void) | null> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = dbLockFile(dataDir);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      writeFileSync(file, JSON.stringify({ pid: process.pid, purpose, at: new Date().toISOString() }), { flag: 'wx', mode: 0o600 });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          const held = JSON.parse(readFileSync(file, 'utf8')) as { pid: number };
          if (held.pid === process.pid) rmSync(file, { force: true });
        } catch { /* already gone */ }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder: { pid: number; purpose?: string } | null = null;
    try { holder = JSON.parse(readFileSync(file, 'utf8')); } catch { holder = null; }
    if (!holder || !isAlive(holder.pid)) {
      rmSync(file, { force: true });
      continue;
    }
    if (giveUp()) return null;
    if (Date.now() > deadline) {
      throw new CmsError('SERVER_BUSY',
        `The database in ${dataDir} is in use by process ${holder.pid} (${holder.purpose ?? 'cms'}). ` +
        'Wait for it to finish, or stop it, then try again.');
    }
    await sleep(100);
  }
}

/** Opens the engine the way this folder allows. */
export async function openEngine(globals: GlobalOptions, io: Io): Promise<Engine> {
  const config = loadConfig({ cwd: io.cwd, configFile: globals.config, env: io.env, project: globals.project });
  if (!isPostgresUrl(config.databaseUrl)) {
    const server = readServerInfo(config.dataDir);
    if (server) return serverEngine(config, server, globals.project);
  }
  return localEngine(config, io);
}

async function localEngine(config: CmsConfig, io: Io): Promise<Engine> {
  const embedded = !isPostgresUrl(config.databaseUrl);
  let release: (() => void) | null = null;
  if (embedded) {
    // A server that starts while we wait (it holds the lock from its first moment) owns the data
    // once it is up: the command then goes through it.
    for (;;) {
      release = await acquireDbLockUnless(config.dataDir, 'cms command', 30_000, () => readServerInfo(config.dataDir) !== null);
      const server = readServerInfo(config.dataDir);
      if (server) {
        release?.();
        return serverEngine(config, server, config.project);
      }
      // The server we gave way to stopped again before we could reach it: queue for the lock anew.
      if (release) break;
    }
  }
  try {
    const { createCms, silentLogger } = await import('../runtime.js');
    // The engine's warnings (a data folder it had to make private) reach the terminal on stderr.
    const log = { ...silentLogger, warn: (message: string) => { io.stderr.write(`warning: ${message}\n`); } };
    const cms = await createCms(config, { log });
    return {
      mode: 'local',
      config,
      async run(op, input) {
        // Results cross the same JSON boundary as on the server door.
        return JSON.parse(JSON.stringify((await cms.runRequest(op, input, { actor: { kind: 'terminal' }, project: config.project })) ?? null));
      },
      async close() {
        await cms.close();
        release?.();
      },
    };
  } catch (e) {
    release?.();
    throw e;
  }
}

function serverEngine(config: CmsConfig, server: ServerLockInfo, project: string | undefined): Engine {
  return {
    mode: 'server',
    config,
    async run(op, input) {
      let res: Response;
      try {
        res = await fetch(`${server.url}/api/v1/_cli/run`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}` },
          body: JSON.stringify({ op, input, project: project ?? config.project }),
          signal: AbortSignal.timeout(10 * 60_000),
        });
      } catch (e) {
        const cause = (e as { cause?: { code?: unknown } }).cause?.code;
        throw new CmsError('SERVER_BUSY',
          `cms serve (pid ${server.pid}) holds ${config.dataDir} but does not answer at ${server.url} ` +
          `(${typeof cause === 'string' ? cause : (e as Error).message}). If it hung, stop it (kill ${server.pid}); if no cms serve ` +
          `runs any more (the pid may belong to another program now), delete ${serverFile(config.dataDir)} and ${dbLockFile(config.dataDir)}. ` +
          'Then run the command again.');
      }
      const body = (await res.json().catch(() => null)) as { data?: unknown; error?: { code: string; message: string; details?: unknown } } | null;
      if (res.ok && body && 'data' in body) return body.data;
      const err = body?.error;
      const code = err && (errorCodes as readonly string[]).includes(err.code) ? (err.code as ErrorCode) : 'INTERNAL';
      throw new CmsError(code, err?.message ?? `The server answered ${res.status}`, err?.details);
    },
    async close() {},
  };
}

export function writeServerInfo(dataDir: string, info: ServerLockInfo): () => void {
  const file = serverFile(dataDir);
  writeFileSync(file, JSON.stringify(info, null, 2), { mode: 0o600 });
  return () => {
    try {
      if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as ServerLockInfo).pid === process.pid) rmSync(file, { force: true });
    } catch { /* already gone */ }
  };
}

/** Runs one operation for a command and closes the engine again. */
export async function withEngine<T>(globals: GlobalOptions, io: Io, fn: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = await openEngine(globals, io);
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
}
