import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, type CmsConfig } from '../config.js';
import { z } from 'zod';
import { CmsError, errorCodes, type ErrorCode } from '../core/errors.js';
import type { InputOf, OperationName, OutputOf } from '../core/registry.js';
import { isPostgresUrl, type Db } from '../db/client.js';
import { errorMessage } from './inputs.js';
import type { GlobalOptions, Io } from './io.js';
import type { Logger } from '../core/context.js';
import type { Cms } from '../runtime.js';

/** Members JSON leaves out of an object: `undefined`, functions, symbols. */
type Dropped = undefined | symbol | ((...args: never[]) => unknown);
type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : T[K] extends Dropped ? never : K }[keyof T];
type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? (T[K] extends Dropped ? never : K) : never }[keyof T];
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * A value's type after `JSON.parse(JSON.stringify(value))`: what an operation's answer looks like
 * once it crossed the JSON boundary between `cms serve` and a command (and the local engine makes
 * the same trip, so both doors answer alike). A Date becomes its ISO string, members that are
 * `undefined` disappear (so may-be-undefined ones become optional), `undefined` in a list or as
 * the whole answer becomes `null`.
 */
export type Jsonified<T> = unknown extends T
  ? unknown
  : T extends { toJSON(): infer R }
    ? Jsonified<R>
    : T extends string | number | boolean | null
      ? T
      : T extends Dropped
        ? null
        : T extends readonly unknown[]
          ? { [I in keyof T]: Jsonified<T[I]> }
          : T extends object
            ? Flat<{ [K in RequiredKeys<T> & (string | number)]: Jsonified<T[K]> } & { [K in OptionalKeys<T> & (string | number)]?: Jsonified<Exclude<T[K], undefined>> }>
            : never;

/** The JSON round trip the answers of both doors make; its type is `Jsonified`. */
function jsonRoundTrip<T>(value: T): Jsonified<T> {
  return JSON.parse(JSON.stringify(value ?? null));
}

/** How a command reaches the engine: in this process, or through a running `cms serve`. */
export interface Engine {
  mode: 'local' | 'server';
  config: CmsConfig;
  /** Runs an operation by name: the input is typed as the operation's, the answer as its JSON form. */
  run<N extends OperationName>(name: N, input: InputOf<N>): Promise<Jsonified<OutputOf<N>>>;
  /**
   * Runs an operation on input whose shape only the operation's schema checks: flags gathered into
   * an object at run time, or the input a core helper builds (a bulk action's, for each id).
   */
  runRequest<N extends OperationName>(name: N, input: unknown): Promise<Jsonified<OutputOf<N>>>;
  /**
   * In this process only: stops the migrations it runs now (each is marked failed, with a log
   * line, what was imported stays), as closing the engine would, while it can still be read.
   */
  stopMigrations?(): Promise<void>;
  close(): Promise<void>;
}

const serverLockInfo = z.object({ pid: z.number(), url: z.string(), token: z.string(), startedAt: z.string() });
export type ServerLockInfo = z.infer<typeof serverLockInfo>;

/** What the `cms serve` bridge answers: the operation's data, or the error. */
const bridgeAnswer = z.object({
  data: z.unknown().optional(),
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }).optional(),
});

/** A lock file's holder: who has the database. */
const lockHolder = z.object({ pid: z.number(), purpose: z.string().optional() });

const readJsonFile = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

const isErrorCode = (code: string): code is ErrorCode => errorCodes.some((c) => c === code);

export const serverFile = (dataDir: string) => join(dataDir, 'server.json');
export const dbLockFile = (dataDir: string) => join(dataDir, 'db.lock');

/** The `code` of a Node system error (`EPERM`, `EEXIST`…). */
const errnoOf = (e: unknown): unknown => (e instanceof Error && 'code' in e ? e.code : undefined);

export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errnoOf(e) === 'EPERM';
  }
}

export function readServerInfo(dataDir: string): ServerLockInfo | null {
  try {
    const info = serverLockInfo.safeParse(readJsonFile(serverFile(dataDir)));
    return info.success && isAlive(info.data.pid) ? info.data : null;
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
  // Never giving up, the wait ends with the lock or a thrown SERVER_BUSY.
  if (!got) throw new CmsError('INTERNAL', `Could not lock ${dataDir}`);
  return got;
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
          const held = lockHolder.safeParse(readJsonFile(file));
          if (held.success && held.data.pid === process.pid) rmSync(file, { force: true });
        } catch { /* already gone */ }
      };
    } catch (e) {
      if (errnoOf(e) !== 'EEXIST') throw e;
    }
    let holder: z.infer<typeof lockHolder> | null = null;
    try { holder = lockHolder.parse(readJsonFile(file)); } catch { holder = null; }
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

/** The engine's warnings (a data folder it had to make private) reach the terminal on stderr. */
const commandLog = (io: Io): Logger => ({ info() {}, error() {}, warn: (message: string) => { io.stderr.write(`warning: ${message}\n`); } });

/**
 * The embedded database's lock for a command (null on PostgreSQL, which needs none), or the
 * running server that owns the data folder.
 */
async function lockForCommand(config: CmsConfig): Promise<{ server: ServerLockInfo } | { release: (() => void) | null }> {
  if (isPostgresUrl(config.databaseUrl)) return { release: null };
  // A server that starts while we wait (it holds the lock from its first moment) owns the data
  // once it is up: the command then goes through it.
  for (;;) {
    const release = await acquireDbLockUnless(config.dataDir, 'cms command', 30_000, () => readServerInfo(config.dataDir) !== null);
    const server = readServerInfo(config.dataDir);
    if (server) {
      release?.();
      return { server };
    }
    // The server we gave way to stopped again before we could reach it: queue for the lock anew.
    if (release) return { release };
  }
}

/**
 * Runs `local` on the database alone, opened as it is (no engine, and so no database migration
 * applied), or, when a running server owns the data folder, `viaServer` on it. For `cms db
 * status`, which must show pending migrations as pending.
 */
export async function withDatabaseAsItIs<T>(globals: GlobalOptions, io: Io, local: (db: Db, config: CmsConfig) => Promise<T>, viaServer: (engine: Engine) => Promise<T>): Promise<T> {
  const config = loadConfig({ cwd: io.cwd, configFile: globals.config, env: io.env, project: globals.project });
  const locked = await lockForCommand(config);
  if ('server' in locked) return viaServer(serverEngine(config, locked.server, config.project));
  try {
    const { openEngineDatabase } = await import('../engine-database.js');
    const opened = await openEngineDatabase(config, commandLog(io), undefined, { migrate: false });
    try {
      return await local(opened.handle.db, config);
    } finally {
      await opened.handle.close();
      opened.secureAfterClose();
    }
  } finally {
    locked.release?.();
  }
}

async function localEngine(config: CmsConfig, io: Io): Promise<Engine> {
  const locked = await lockForCommand(config);
  if ('server' in locked) return serverEngine(config, locked.server, config.project);
  const { release } = locked;
  try {
    const log = commandLog(io);
    // The database opens (PGlite reads and compiles its WebAssembly) while the engine's modules load.
    const { openEngineDatabase } = await import('../engine-database.js');
    const opening = openEngineDatabase(config, log);
    // Its failure is createCms's to report; until createCms awaits it, it is not unhandled.
    opening.catch(() => {});
    let cms: Cms;
    try {
      const { createCms } = await import('../runtime.js');
      cms = await createCms(config, { log, opening });
    } catch (e) {
      // Loading the engine failed while the database opened: close it again.
      await opening.then(async (d) => { await d.handle.close(); d.secureAfterClose(); }, () => {});
      throw e;
    }
    const as = { actor: { kind: 'terminal' }, project: config.project } as const;
    return {
      mode: 'local',
      config,
      // Results cross the same JSON boundary as on the server door.
      run: async (name, input) => jsonRoundTrip(await cms.run(name, input, as)),
      runRequest: async (name, input) => jsonRoundTrip(await cms.runRequest(name, input, as)),
      stopMigrations: () => cms.services.migrationRunner.stop(),
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
  const runRequest = async <N extends OperationName>(op: N, input: unknown): Promise<Jsonified<OutputOf<N>>> => {
    let res: Response;
    try {
      res = await fetch(`${server.url}/api/v1/_cli/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}` },
        body: JSON.stringify({ op, input, project: project ?? config.project }),
        signal: AbortSignal.timeout(10 * 60_000),
      });
    } catch (e) {
      const cause = e instanceof Error && e.cause instanceof Error && 'code' in e.cause ? e.cause.code : undefined;
      throw new CmsError('SERVER_BUSY',
        `cms serve (pid ${server.pid}) holds ${config.dataDir} but does not answer at ${server.url} ` +
        `(${typeof cause === 'string' ? cause : errorMessage(e)}). If it hung, stop it (kill ${server.pid}); if no cms serve ` +
        `runs any more (the pid may belong to another program now), delete ${serverFile(config.dataDir)} and ${dbLockFile(config.dataDir)}. ` +
        'Then run the command again.');
    }
    const body = bridgeAnswer.safeParse(await res.json().catch(() => null));
    if (res.ok && body.success && 'data' in body.data) {
      // The server ran this same operation and sent its answer as JSON: the answer's JSON form.
      return body.data.data as Jsonified<OutputOf<N>>;
    }
    const err = body.success ? body.data.error : undefined;
    throw new CmsError(err && isErrorCode(err.code) ? err.code : 'INTERNAL', err?.message ?? `The server answered ${res.status}`, err?.details);
  };
  return {
    mode: 'server',
    config,
    run: runRequest,
    runRequest,
    async close() {},
  };
}

export function writeServerInfo(dataDir: string, info: ServerLockInfo): () => void {
  const file = serverFile(dataDir);
  writeFileSync(file, JSON.stringify(info, null, 2), { mode: 0o600 });
  return () => {
    try {
      if (existsSync(file) && serverLockInfo.safeParse(readJsonFile(file)).data?.pid === process.pid) rmSync(file, { force: true });
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
