import { EventEmitter } from 'node:events';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { resolveConfig, type CmsConfig, type CmsConfigInput } from './config.js';
import { join } from 'node:path';
import type { Db, DbHandle } from './db/client.js';
import { inMemoryDatabaseUrl, openEngineDatabase, type EngineDatabase } from './engine-database.js';
import { contentRevisions, projects } from './db/schema/index.js';
import type { Actor } from './core/actor.js';
import type { Clock, Ctx, EventKind, Logger, ProjectRef, Services } from './core/context.js';
import { CmsError, isCmsError } from './core/errors.js';
import { checkAccess, parseInput, type AnyOperation, type Operation } from './core/operation.js';
import { isOperationName, operations, type InputOf, type OperationName, type OutputOf } from './core/registry.js';
import { writeOutbox } from './core/webhooks/outbox.js';
import { findStoredResponse, storeResponse, type IdempotencyScope } from './core/idempotency.js';
import { createDiskMediaFiles } from './media/files.js';
import { createMigrationRunner } from './importers/runner.js';
import { createWebhookDispatcher } from './webhooks/dispatcher.js';
import { propertyOf } from './lib/unknown-values.js';

export interface RunOptions {
  actor: Actor;
  /** The project's slug; keys bring their own project and ignore it. */
  project?: string | undefined;
  /**
   * Runs inside the write's transaction after the operation succeeded (the public write door
   * stores its idempotent answer there, so a rolled-back write leaves no record).
   */
  beforeCommit?: ((db: Db, result: unknown) => Promise<void>) | undefined;
}

export interface EmittedEvent {
  projectId: string;
  kind: EventKind;
  data: unknown;
}

export interface CmsEvents {
  /** A committed write changed the public content of a project (here or in another process). */
  'content-changed': [projectId: string];
  /** API keys of a project changed (revoked), here or in another process. */
  'keys-changed': [projectId: string];
  /** New outbox rows were committed. */
  outbox: [];
  /** An event was committed (after commit, in commit order). */
  event: [EmittedEvent];
}

export interface IdempotentRun {
  scope: IdempotencyScope;
  /** The success status and body the door answers with. */
  status: number;
  wrap(result: unknown): unknown;
  /** The status a failure answers with, when it is to be stored (4xx of the operation itself); else null. */
  storedFailure(error: CmsError): { status: number; body: unknown } | null;
}

export interface IdempotentResult {
  status: number;
  body: unknown;
  replayed: boolean;
}

export interface CreateCmsOptions {
  clock?: Clock;
  log?: Logger;
  /**
   * Ports handed in instead of the engine's own (a test's media store or dispatcher). The engine
   * closes them with itself, as it does its own.
   */
  services?: Partial<Services>;
  /** Reuse an open database (tests share one PGlite between engines). */
  handle?: DbHandle;
  /**
   * The database as `openEngineDatabase(config, log, handle)` is opening it, started by the caller
   * before it loaded this module (the CLI does, so that PGlite starts while the engine loads).
   */
  opening?: Promise<EngineDatabase>;
}

export interface Cms {
  readonly config: CmsConfig;
  readonly db: Db;
  readonly handle: DbHandle;
  readonly clock: Clock;
  readonly log: Logger;
  readonly services: Readonly<Services>;
  readonly events: EventEmitter<CmsEvents>;
  /** Runs an operation by name: the input is typed as the operation's, and so is the answer. */
  run<N extends OperationName>(name: N, input: InputOf<N>, options: RunOptions): Promise<OutputOf<N>>;
  run<S extends z.ZodType, O>(op: Operation<S, O>, input: z.input<S>, options: RunOptions): Promise<O>;
  /**
   * Runs an operation on input from outside the program (a request body, a bridged CLI call),
   * whose shape only the operation's schema checks; the answer is typed as the operation's.
   */
  runRequest<N extends OperationName>(name: N, input: unknown, options: RunOptions): Promise<OutputOf<N>>;
  /**
   * Runs a write at most once per idempotency key: a repeat replays the stored answer, a
   * different request under the key is refused, a repeat while the first runs is refused.
   */
  runIdempotent(name: OperationName, input: unknown, options: RunOptions, idem: IdempotentRun): Promise<IdempotentResult>;
  /** Checks that the actor may run the operation, without running it. */
  authorize(op: OperationName, options: RunOptions): Promise<void>;
  resolveProject(slug: string): Promise<ProjectRef>;
  projectById(id: string): Promise<ProjectRef>;
  close(): Promise<void>;
}

export const systemClock: Clock = { now: () => new Date() };

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export const consoleLogger: Logger = {
  info: (m, d) => console.error(`[cms] ${m}`, d ?? ''),
  warn: (m, d) => console.error(`[cms] warning: ${m}`, d ?? ''),
  error: (m, d) => console.error(`[cms] error: ${m}`, d ?? ''),
};

export { inMemoryDatabaseUrl };

const contentChannel = 'cms_content_changed';
const keysChannel = 'cms_keys_changed';

/**
 * The composition root: one engine that both doors (CLI and HTTP) call into, and the Local API
 * (docs/local-api.md). `input` is a configuration (`loadConfig`'s, used as it is) or any part of
 * one, the rest from the defaults (`resolveConfig`).
 */
export async function createCms(input: CmsConfigInput = {}, options: CreateCmsOptions = {}): Promise<Cms> {
  const config = resolveConfig(input);
  const log = options.log ?? silentLogger;
  const database = await (options.opening ?? openEngineDatabase(config, log, options.handle));
  const { handle } = database;
  const ownsHandle = database.owned;
  const db = handle.db;
  const clock = options.clock ?? systemClock;
  // Built once here, from the configuration, unless the caller hands in its own: media files
  // live on the disk, migrations run in this process, webhooks go out through one dispatcher
  // (which `cms serve` drives and `cms webhooks process` runs once).
  let engine: Cms | undefined;
  const services: Readonly<Services> = Object.freeze({
    mediaFiles: options.services?.mediaFiles ?? createDiskMediaFiles(join(config.dataDir, 'media')),
    migrationRunner: options.services?.migrationRunner ?? createMigrationRunner(() => {
      if (!engine) throw new Error('the engine is not ready yet');
      return engine;
    }),
    webhooks: options.services?.webhooks ?? createWebhookDispatcher({ db, clock, log }, {
      blockPrivate: config.webhookBlockPrivate,
      shutdownGraceMs: config.shutdownGraceMs,
    }),
  });
  const events = new EventEmitter<CmsEvents>();
  events.setMaxListeners(100);
  const bySlug = new Map<string, ProjectRef>();
  const byId = new Map<string, ProjectRef>();

  const remember = (p: ProjectRef) => { bySlug.set(p.slug, p); byId.set(p.id, p); return p; };

  // The configured project exists from the first command on: zero set-up.
  if (config.createProject !== false) {
    await db.insert(projects).values({ slug: config.project, name: config.project }).onConflictDoNothing();
  }

  let unlisten: (() => Promise<void>) | null = null;
  if (handle.driver === 'postgres') {
    // Other processes on the same database tell us about their writes, so caches stay exact.
    const offContent = await handle.listen(contentChannel, (projectId) => events.emit('content-changed', projectId));
    const offKeys = await handle.listen(keysChannel, (projectId) => events.emit('keys-changed', projectId));
    unlisten = async () => { await offContent(); await offKeys(); };
  }

  async function resolveProject(slug: string): Promise<ProjectRef> {
    const known = bySlug.get(slug);
    if (known) return known;
    const [row] = await db.select({ id: projects.id, slug: projects.slug }).from(projects).where(eq(projects.slug, slug));
    if (!row) throw new CmsError('NOT_FOUND', `Project "${slug}" not found`);
    return remember(row);
  }

  async function projectById(id: string): Promise<ProjectRef> {
    const known = byId.get(id);
    if (known) return known;
    const [row] = await db.select({ id: projects.id, slug: projects.slug }).from(projects).where(eq(projects.id, id));
    if (!row) throw new CmsError('NOT_FOUND', 'Project not found');
    return remember(row);
  }

  function lookup(name: string): AnyOperation {
    if (!isOperationName(name)) throw new CmsError('NOT_FOUND', `Unknown operation ${name}`);
    return operations[name];
  }

  function run<N extends OperationName>(name: N, input: InputOf<N>, runOptions: RunOptions): Promise<OutputOf<N>>;
  function run<S extends z.ZodType, O>(op: Operation<S, O>, input: z.input<S>, runOptions: RunOptions): Promise<O>;
  function run(opOrName: AnyOperation | OperationName, input: unknown, runOptions: RunOptions): Promise<unknown> {
    return execute(typeof opOrName === 'string' ? lookup(opOrName) : opOrName, input, runOptions);
  }

  function runRequest<N extends OperationName>(name: N, input: unknown, runOptions: RunOptions): Promise<OutputOf<N>>;
  function runRequest(name: OperationName, input: unknown, runOptions: RunOptions): Promise<unknown> {
    return execute(lookup(name), input, runOptions);
  }

  async function execute(op: AnyOperation, input: unknown, runOptions: RunOptions): Promise<unknown> {
    const { actor } = runOptions;
    const project = op.global
      ? { id: '', slug: '' }
      : actor.kind === 'key'
        ? await projectById(actor.projectId)
        : await resolveProject(runOptions.project ?? config.project);
    checkAccess(op, actor, op.global ? null : project.id);
    const parsed = parseInput(op, input);
    if (!op.write) return op.run(makeCtx(db, project, actor, null), parsed);

    const unit: UnitOfWork = { changed: false, keys: false, outbox: false, after: [], emitted: [] };
    let result: unknown;
    try {
      result = await db.transaction(async (tx) => {
        const out = await op.run(makeCtx(tx, project, actor, unit), parsed);
        if (runOptions.beforeCommit) await runOptions.beforeCommit(tx, out);
        if (unit.changed) await bumpRevision(tx, project.id);
        if (unit.keys && handle.driver === 'postgres') await tx.execute(sql`select pg_notify(${keysChannel}, ${project.id})`);
        return out;
      });
    } catch (e) {
      throw translateDbError(e);
    }
    if (unit.changed) events.emit('content-changed', project.id);
    if (unit.keys) events.emit('keys-changed', project.id);
    for (const ev of unit.emitted) events.emit('event', ev);
    if (unit.outbox) events.emit('outbox');
    for (const fn of unit.after) {
      try { await fn(); } catch (e) { log.error('after-commit hook failed', { error: String(e) }); }
    }
    return result;
  }

  interface UnitOfWork {
    changed: boolean;
    keys: boolean;
    outbox: boolean;
    after: Array<() => void | Promise<void>>;
    emitted: EmittedEvent[];
  }

  function makeCtx(dbOrTx: Db, project: ProjectRef, actor: Actor, unit: UnitOfWork | null): Ctx {
    const needUnit = (what: string): UnitOfWork => {
      if (!unit) throw new Error(`${what} called outside a write operation`);
      return unit;
    };
    return {
      db: dbOrTx,
      project,
      actor,
      clock,
      log,
      services,
      settings: { baseUrl: config.baseUrl, maxUploadBytes: config.maxUploadBytes },
      async emit(kind, data) {
        const u = needUnit('emit');
        const rows = await writeOutbox(dbOrTx, project.id, kind, data, clock.now());
        if (rows > 0) u.outbox = true;
        u.emitted.push({ projectId: project.id, kind, data });
      },
      contentChanged() { needUnit('contentChanged').changed = true; },
      keysChanged() { needUnit('keysChanged').keys = true; },
      afterCommit(fn) { needUnit('afterCommit').after.push(fn); },
    };
  }

  async function bumpRevision(tx: Db, projectId: string) {
    await tx.insert(contentRevisions).values({ projectId, revision: 1 }).onConflictDoUpdate({
      target: contentRevisions.projectId,
      set: { revision: sql`${contentRevisions.revision} + 1`, updatedAt: sql`now()` },
    });
    if (handle.driver === 'postgres') await tx.execute(sql`select pg_notify(${contentChannel}, ${projectId})`);
  }

  async function authorize(name: OperationName, runOptions: RunOptions): Promise<void> {
    const op = lookup(name);
    const { actor } = runOptions;
    const project = op.global ? null : actor.kind === 'key' ? await projectById(actor.projectId) : await resolveProject(runOptions.project ?? config.project);
    checkAccess(op, actor, project?.id ?? null);
  }

  /**
   * Keys whose write is running in this process. Only a request that runs the operation holds
   * its key: retries that merely look up a stored answer hold nothing, so any number of them at
   * once all replay it.
   */
  const running = new Set<string>();
  const stillRunning = () => new CmsError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still running; retry once it has finished');

  async function runIdempotent(name: OperationName, input: unknown, runOptions: RunOptions, idem: IdempotentRun): Promise<IdempotentResult> {
    const flight = `${idem.scope.apiKeyId}\u0000${idem.scope.key}`;
    // Refused without a database round trip while the first still runs here.
    if (running.has(flight)) throw stillRunning();
    const stored = await findStoredResponse(db, idem.scope, clock.now());
    if (stored) return { ...stored, replayed: true };
    if (running.has(flight)) throw stillRunning();
    running.add(flight);
    try {
      try {
        const result = await execute(lookup(name), input, {
          ...runOptions,
          beforeCommit: (tx, out) => storeResponse(tx, idem.scope, { status: idem.status, body: idem.wrap(out) }, clock.now()),
        });
        return { status: idem.status, body: idem.wrap(result), replayed: false };
      } catch (e) {
        if (isCmsError(e)) {
          // Another process may have run the same request under this key meanwhile (its commit
          // is what made this run fail: a taken slug, a moved version, the key's own row): the
          // answer it stored is the answer.
          const theirs = await findStoredResponse(db, idem.scope, clock.now());
          if (theirs) return { ...theirs, replayed: true };
          const failure = idem.storedFailure(e);
          if (failure) {
            await db.transaction((tx) => storeResponse(tx, idem.scope, failure, clock.now())).catch(() => {});
          }
        }
        throw e;
      }
    } finally {
      running.delete(flight);
    }
  }

  let closed = false;
  engine = {
    config,
    db,
    handle,
    clock,
    log,
    services,
    events,
    run,
    runRequest,
    authorize,
    runIdempotent,
    resolveProject,
    projectById,
    async close() {
      if (closed) return;
      closed = true;
      // Running migrations are marked failed (with a log line), and webhook attempts in flight
      // finish or are handed back, while the database is still open.
      await Promise.allSettled([services.migrationRunner.stop(), services.webhooks.close()]);
      events.removeAllListeners();
      if (unlisten) await unlisten().catch(() => {});
      if (ownsHandle) await handle.close();
      database.secureAfterClose();
    },
  };
  return engine;
}

/** Constraint violations that race past an operation's own checks become contract errors. */
export function translateDbError(e: unknown): unknown {
  if (isCmsError(e)) return e;
  const err = findPgError(e);
  if (err?.code === '23505') {
    if (/idempotency/.test(err.constraint ?? err.message ?? '')) {
      return new CmsError('IDEMPOTENCY_KEY_IN_USE', 'Another request with this Idempotency-Key is running or has just finished');
    }
    if (/slug/.test(err.constraint ?? err.message ?? '')) return new CmsError('SLUG_EXISTS', 'Slug already exists');
    return new CmsError('CONFLICT', 'A record with the same unique value already exists');
  }
  if (err?.code === '40001' || err?.code === '40P01') {
    return new CmsError('CONFLICT', 'The write collided with another one; try again');
  }
  return e;
}

function findPgError(e: unknown): { code?: string; constraint?: string; message?: string } | null {
  let cur: unknown = e;
  for (let depth = 0; cur && depth < 4; depth++) {
    const code = propertyOf(cur, 'code');
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      const constraint = propertyOf(cur, 'constraint') ?? propertyOf(cur, 'constraint_name');
      const message = propertyOf(cur, 'message');
      return {
        code,
        ...(typeof constraint === 'string' ? { constraint } : {}),
        ...(typeof message === 'string' ? { message } : {}),
      };
    }
    cur = propertyOf(cur, 'cause');
  }
  return null;
}
