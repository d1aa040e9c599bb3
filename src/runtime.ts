import { randomInt, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { resolveConfig, type CmsConfig, type CmsConfigInput } from './config.js';
import { join } from 'node:path';
import { builtOnce } from './db/built-once.js';
import type { Db, DbHandle } from './db/client.js';
import { finishTransaction } from './db/pipelined-transactions.js';
import { inMemoryDatabaseUrl, openEngineDatabase, type EngineDatabase } from './engine-database.js';
import { contentRevisions, projects } from './db/schema/index.js';
import { isActor, type Actor } from './core/actor.js';
import type { Clock, Ctx, EventKind, Logger, ProjectRef, Services } from './core/context.js';
import type { MediaFiles, MediaStore } from './core/media/storage.js';
import { initialLocales, isMultilingual, type Locale } from './core/locales/model.js';
import { CmsError, isCmsError } from './core/errors.js';
import { checkAccess, parseInput, type AnyOperation, type Operation } from './core/operation.js';
import { isOperationName, operations, type InputOf, type OperationName, type OutputOf } from './core/registry.js';
import { insertOutbox, outboxChannel, outboxRowsOf, type OutboxRow } from './core/webhooks/outbox.js';
import { findStoredResponse, storeResponse, type IdempotencyScope, type StoredResponse } from './core/idempotency.js';
import { completeMediaStore, openMediaStore, openStoreOf } from './media/stores.js';
import { createMigrationRunner } from './importers/runner.js';
import { createWebhookDispatcher } from './webhooks/dispatcher.js';
import { createListTotals } from './list-totals.js';
import { createKept, createReadMemory, type Kept } from './kept.js';
import { createStatisticsRefresher } from './db/statistics.js';
import { createAiService } from './ai/service.js';
import { propertyOf } from './lib/unknown-values.js';
import type { CmsMetrics } from './metrics.js';

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
  /** Projects with several locales: the locales whose values changed (every locale for a shared change). */
  locales?: string[];
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
  /** The API key and the Idempotency-Key; the request's hash comes with the request (`read`). */
  scope: Omit<IdempotencyScope, 'requestHash'>;
  /**
   * Reads the request (its body): called once the key is held, so that a repeat sent while the
   * first is still being read is refused too; or by a repeat that finds the answer stored.
   */
  read(): Promise<{ input: unknown; requestHash: string }>;
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
  services?: Partial<Omit<Services, 'mediaFiles'>> & {
    /** A store with only the media operations' methods is completed (see `completeMediaStore`). */
    mediaFiles?: MediaFiles | MediaStore;
  };
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
  /**
   * The engine's Prometheus metrics (src/metrics.ts), made by the HTTP server that serves it;
   * null until then, so that a CLI command never loads prom-client. Counting sites skip a null.
   */
  metrics: CmsMetrics | null;
  readonly services: Readonly<Services>;
  readonly events: EventEmitter<CmsEvents>;
  /** What the server keeps between requests (src/kept.ts): whole answers and what lists are made of, in one bound. */
  readonly kept: Kept;
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
  runIdempotent(name: OperationName, options: RunOptions, idem: IdempotentRun): Promise<IdempotentResult>;
  /** Checks that the actor may run the operation, without running it. */
  authorize(op: OperationName, options: RunOptions): Promise<void>;
  resolveProject(slug: string): Promise<ProjectRef>;
  projectById(id: string): Promise<ProjectRef>;
  close(): Promise<void>;
}

export const systemClock: Clock = { now: () => new Date() };

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** Lines on standard error, for programs using the Local API; `cms serve` logs through pino (src/logging.ts). */
export const consoleLogger: Logger = {
  info: (m, d) => console.error(`[cms] ${m}`, d ?? ''),
  warn: (m, d) => console.error(`[cms] warning: ${m}`, d ?? ''),
  error: (m, d) => console.error(`[cms] error: ${m}`, d ?? ''),
};

export { inMemoryDatabaseUrl };

const contentChannel = 'cms_content_changed';
/** Reconnects of the LISTEN connection this close together are one (one warning, one drop). */
const reconnectBurstMs = 1_000;
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
  const events = new EventEmitter<CmsEvents>();
  events.setMaxListeners(100);
  const kept = createKept(config.cacheMaxBytes);
  const mediaFiles = options.services?.mediaFiles ? completeMediaStore(options.services.mediaFiles) : await openMediaStore(config);
  const services: Readonly<Services> = Object.freeze({
    mediaFiles,
    mediaStores: options.services?.mediaStores ?? {
      driver: config.storage.driver,
      open: async (driver) => (driver === config.storage.driver ? mediaFiles : openStoreOf(config, driver)),
    },
    migrationRunner: options.services?.migrationRunner ?? createMigrationRunner(() => {
      if (!engine) throw new Error('the engine is not ready yet');
      return engine;
    }),
    webhooks: options.services?.webhooks ?? createWebhookDispatcher({
      db, clock, log, onOutcome: (outcome) => engine?.metrics?.webhookDeliveries.inc({ outcome }),
    }, {
      blockPrivate: config.webhookBlockPrivate,
      shutdownGraceMs: config.shutdownGraceMs,
    }),
    listTotals: options.services?.listTotals ?? createListTotals(db),
    readMemory: options.services?.readMemory ?? createReadMemory(db, kept, { enabled: config.cache }),
    statistics: options.services?.statistics ?? createStatisticsRefresher(db, handle.driver === 'pglite'),
    ai: options.services?.ai ?? createAiService(config.ai),
  });
  const bySlug = new Map<string, ProjectRef>();
  const byId = new Map<string, ProjectRef>();

  const remember = (p: ProjectRef) => { bySlug.set(p.slug, p); byId.set(p.id, p); return p; };
  // A project's locales live in its row: the project is read again after a write that changed
  // the row (ctx.projectChanged), and after any content change another process tells of, unless
  // its notice says the row did not change.
  const contentChanged = (projectId: string, projectToo: boolean) => {
    const known = projectToo ? byId.get(projectId) : undefined;
    if (known) {
      byId.delete(projectId);
      bySlug.delete(known.slug);
    }
    kept.changed(projectId);
    events.emit('content-changed', projectId);
  };
  const anyChange = (projectId: string) => contentChanged(projectId, true);

  // The configured project exists from the first command on: zero set-up.
  if (config.createProject !== false) {
    await db.insert(projects).values({ slug: config.project, name: config.project }).onConflictDoNothing();
  }

  let unlisten: (() => Promise<void>) | null = null;
  // Names this engine's own content notices, so it does not hear its own writes twice.
  const instance = randomUUID();
  // A notice is sent after its write commits, and a LISTEN connection can drop and come back:
  // either way a notice can be lost. Whoever keeps content (the response cache) also gets a
  // change of the revision seen by a poll, so a lost notice is noticed within seconds.
  const watch = handle.driver === 'postgres'
    ? await watchRevisions(db, revisionWatchMs, () => kept.followed || events.listenerCount('content-changed') > 0,
      anyChange, log)
    : null;
  /**
   * After the LISTEN connection came back: notices sent while it was down are lost, so everything
   * kept is dropped, in every project. Reconnects that come in a burst (postgres.js re-listens once
   * per queued attempt when the database takes connections again) are one warning and one drop,
   * and a reconnect during the drop brings one more drop after it.
   */
  let dropping: Promise<void> | null = null;
  let reconnectedAgain = false;
  function afterReconnect(): void {
    if (dropping) { reconnectedAgain = true; return; }
    log.warn('LISTEN connection reconnected; dropping every cached answer');
    dropping = (async () => {
      do {
        reconnectedAgain = false;
        try {
          for (const { id } of await db.select({ id: projects.id }).from(projects)) {
            anyChange(id);
            events.emit('keys-changed', id);
          }
        } catch (e) {
          log.warn('could not list the projects after the LISTEN reconnect', { error: String(e) });
        }
        // A burst's reconnects land within moments of each other: they share this drop.
        await new Promise((resolve) => setTimeout(resolve, reconnectBurstMs));
      } while (reconnectedAgain);
    })().finally(() => { dropping = null; });
  }

  if (handle.driver === 'postgres') {
    // Other processes on the same database tell us about their writes, so caches stay exact.
    const offContent = await handle.listen(contentChannel, (payload) => {
      // "<project id> <engine> content" when the project's row did not change; a notice without
      // the third word (a change of the row, or an engine of an earlier version) drops it.
      const [projectId = '', from, what] = payload.split(' ');
      if (from !== instance) contentChanged(projectId, what !== contentOnly);
    }, () => afterReconnect());
    const offKeys = await handle.listen(keysChannel, (projectId) => events.emit('keys-changed', projectId));
    const offServers = await watchOtherServers(handle, db, instance, kept, watch!, log);
    unlisten = async () => { await offServers(); await offContent(); await offKeys(); };
  }

  async function resolveProject(slug: string): Promise<ProjectRef> {
    const known = bySlug.get(slug);
    if (known) return known;
    const [row] = await db.select(projectColumns).from(projects).where(eq(projects.slug, slug));
    if (!row) throw new CmsError('NOT_FOUND', `Project "${slug}" not found`);
    return remember(projectRefOf(row));
  }

  async function projectById(id: string): Promise<ProjectRef> {
    const known = byId.get(id);
    if (known) return known;
    const [row] = await db.select(projectColumns).from(projects).where(eq(projects.id, id));
    if (!row) throw new CmsError('NOT_FOUND', 'Project not found');
    return remember(projectRefOf(row));
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
    // The actor is never implied: a call without one (the local API, plain JavaScript) is told so.
    const actor = propertyOf(runOptions, 'actor');
    if (!isActor(actor)) throw new CmsError('UNAUTHORIZED', 'No actor given: pass { actor } as the third argument, e.g. { actor: { kind: \'terminal\' } } (docs/local-api.md)');
    const project = op.global
      ? { id: '', slug: '', locales: initialLocales }
      : actor.kind === 'key'
        ? await projectById(actor.projectId)
        : await resolveProject(runOptions.project ?? config.project);
    checkAccess(op, actor, op.global ? null : project.id);
    const parsed = parseInput(op, input);
    if (!op.write) return op.run(makeCtx(db, project, actor, null, runOptions), parsed);

    const unit: UnitOfWork = { changed: false, project: false, keys: false, outbox: [], after: [], emitted: [] };
    let result: unknown;
    try {
      result = await db.transaction(async (tx) => {
        const out = await op.run(makeCtx(tx, project, actor, unit, runOptions), parsed);
        // The last statements do not depend on each other: sent together (PostgreSQL pipelines
        // them on the transaction's connection, with its COMMIT), and the first failure is the
        // one reported.
        await finishTransaction(tx, [
          unit.outbox.length ? insertOutbox(tx, unit.outbox) : undefined,
          runOptions.beforeCommit?.(tx, out),
          unit.changed ? bumpRevision(tx, project.id) : undefined,
          unit.keys && handle.driver === 'postgres' ? tx.execute(sql`select pg_notify(${keysChannel}, ${project.id})`) : undefined,
        ]);
        return out;
      });
    } catch (e) {
      throw translateDbError(e);
    }
    // Counted as this engine's own at once, before the notices go out: a revision poll that sees
    // the write's bump before it is counted takes it for another process's (and the count, come
    // later, for the next one's).
    if (unit.changed) watch?.ownWrite(project.id);
    // Told after the commit, not inside the transaction: PostgreSQL serialises the commits of
    // all transactions that NOTIFY (a global lock held through the commit's flush).
    // (The outbox channel on PGlite too: engines that share one PGlite hear each other's.)
    await Promise.all([
      unit.changed && handle.driver === 'postgres'
        ? contentNotices.send([project.id, instance, ...(unit.project ? [] : [contentOnly])].join(' '))
        : undefined,
      unit.outbox.length ? outboxNotices.send(project.id) : undefined,
    ]);
    if (unit.changed) contentChanged(project.id, unit.project);
    if (unit.keys) events.emit('keys-changed', project.id);
    for (const ev of unit.emitted) events.emit('event', ev);
    if (unit.outbox.length) events.emit('outbox');
    for (const fn of unit.after) {
      try { await fn(); } catch (e) { log.error('after-commit hook failed', { error: String(e) }); }
    }
    return result;
  }

  interface UnitOfWork {
    changed: boolean;
    /** The project's own row changed (its locales): the engines read it again. */
    project: boolean;
    keys: boolean;
    /** Delivery rows of the events emitted, inserted together before the commit. */
    outbox: OutboxRow[];
    after: Array<() => void | Promise<void>>;
    emitted: EmittedEvent[];
  }

  function makeCtx(dbOrTx: Db, project: ProjectRef, actor: Actor, unit: UnitOfWork | null, runOptions: RunOptions): Ctx {
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
      settings: { baseUrl: config.baseUrl, maxUploadBytes: config.maxUploadBytes, previewUrl: config.previewUrl },
      async emit(kind, data, opts) {
        const u = needUnit('emit');
        // The changed locales travel with the event only where there is more than one locale.
        const locales = opts?.locales && isMultilingual(project.locales) ? [...opts.locales] : undefined;
        u.outbox.push(...(await outboxRowsOf(dbOrTx, project.id, kind, data, clock.now(), locales)));
        u.emitted.push(locales ? { projectId: project.id, kind, data, locales } : { projectId: project.id, kind, data });
      },
      contentChanged() { needUnit('contentChanged').changed = true; },
      projectChanged() {
        const u = needUnit('projectChanged');
        u.changed = true;
        u.project = true;
      },
      keysChanged() { needUnit('keysChanged').keys = true; },
      afterCommit(fn) { needUnit('afterCommit').after.push(fn); },
      runWrite(op, input, answer) {
        if (unit) throw new Error('runWrite called inside a write operation');
        const { beforeCommit } = runOptions;
        // The calling operation's answer is the request's: an idempotent door stores that one.
        return run(op, input, {
          actor, project: project.slug, beforeCommit: beforeCommit ? (tx) => beforeCommit(tx, answer) : undefined,
        });
      },
    };
  }

  /**
   * Adds 1 to one of the project's revision slots (the revision is their sum). On PostgreSQL a
   * write takes a slot at random, so concurrent writers seldom wait for each other's row lock
   * until commit; PGlite runs one transaction at a time and keeps one slot.
   */
  async function bumpRevision(tx: Db, projectId: string) {
    const slot = handle.driver === 'postgres' ? randomInt(revisionSlots) : 0;
    await bumpRevisionSlot(tx, { projectId, slot });
  }

  // The payload: the project's id, this engine, and `content` when the project's row did not change.
  const contentNotices = sharedNotices((payload) => db.execute(sql`select pg_notify(${contentChannel}, ${payload})`));
  const outboxNotices = sharedNotices((projectId) => db.execute(sql`select pg_notify(${outboxChannel}, ${projectId})`));

  async function authorize(name: OperationName, runOptions: RunOptions): Promise<void> {
    const op = lookup(name);
    const { actor } = runOptions;
    const project = op.global ? null : actor.kind === 'key' ? await projectById(actor.projectId) : await resolveProject(runOptions.project ?? config.project);
    checkAccess(op, actor, project?.id ?? null);
  }

  /**
   * Keys whose write is being handled in this process, each with how its handling ends: held from
   * the moment the request is known (its headers), before its body is read. A repeat that arrives
   * while the key is held is refused with 409, as a repeat of a request still running is; but the
   * holder may itself be a retry of a request that finished long ago (it reads its body, then finds
   * the answer stored, or, for a transactional write, which runs without looking first, finds it
   * when its run fails). The repeat therefore waits for the holder: if the holder ran the request
   * (or failed), the first was still running when the repeat came (409); if it found the answer
   * stored, so does the repeat (a replay). So any number of retries of a finished request sent at
   * once all replay it. A write that looks first tells as soon as it knows it runs the request, and
   * its repeats are refused at once.
   */
  const running = new Map<string, Promise<HolderOutcome>>();
  const stillRunning = () => new CmsError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still running; retry once it has finished');

  async function runIdempotent(name: OperationName, runOptions: RunOptions, idem: IdempotentRun): Promise<IdempotentResult> {
    const flight = `${idem.scope.apiKeyId}\u0000${idem.scope.key}`;
    const op = lookup(name);
    const holder = running.get(flight);
    if (holder) {
      // Refused without a database round trip when the holder ran the request (or failed).
      if ((await holder) !== 'replayed') throw stillRunning();
      const { requestHash } = await idem.read();
      const stored = await findStoredResponse(db, { ...idem.scope, requestHash }, clock.now());
      if (stored) return { ...stored, replayed: true };
      throw stillRunning();
    }
    // The key is held from here, before the request is read: a repeat sent at the same time as a
    // large first request finds it held while the first is still arriving.
    let outcome: HolderOutcome = 'failed';
    let ended!: (outcome: HolderOutcome) => void;
    running.set(flight, new Promise<HolderOutcome>((resolve) => { ended = resolve; }));
    try {
      const { input, requestHash } = await idem.read();
      const scope: IdempotencyScope = { ...idem.scope, requestHash };
      // A transactional write runs without looking first: a stored answer makes its run fail (the
      // key's record is taken, or the write itself is refused, its slug taken say) and is found below.
      if (!op.transactional) {
        const stored = await findStoredResponse(db, scope, clock.now());
        if (stored) {
          outcome = 'replayed';
          return { ...stored, replayed: true };
        }
        // It runs the request: repeats that wait are refused now, not when it ends.
        ended('ran');
      }
      try {
        const result = await execute(op, input, {
          ...runOptions,
          beforeCommit: (tx, out) => storeResponse(tx, scope, { status: idem.status, body: idem.wrap(out) }, clock.now()),
        });
        outcome = 'ran';
        return { status: idem.status, body: idem.wrap(result), replayed: false };
      } catch (e) {
        if (isCmsError(e) || op.transactional) {
          // The request ran before under this key (a transactional write looks only now), or
          // another process ran it meanwhile (its commit is what made this run fail: a taken
          // slug, a moved version, the key's own row): the answer it stored is the answer.
          const theirs = await findStoredResponse(db, scope, clock.now());
          if (theirs) {
            outcome = 'replayed';
            return { ...theirs, replayed: true };
          }
        }
        if (isCmsError(e)) {
          const failure = idem.storedFailure(e);
          if (failure && !(await storeFailure(scope, failure))) {
            // Another process stored its answer under the key since we looked: it ran the request
            // meanwhile (and may have written: the page this run did not find yet, say), or was
            // refused too and stored first. Its answer is the answer; a different request stored
            // under the key is refused as a reuse, as always.
            const theirs = await findStoredResponse(db, scope, clock.now());
            if (theirs) {
              outcome = 'replayed';
              return { ...theirs, replayed: true };
            }
          }
        }
        throw e;
      }
    } finally {
      running.delete(flight);
      ended(outcome);
    }
  }

  /**
   * Stores a refused request's answer under its key; false when the key already holds a live
   * answer. A database that fails the store (gone, say) leaves the refusal unstored: a retry runs
   * again, and is refused again.
   */
  async function storeFailure(scope: IdempotencyScope, failure: StoredResponse): Promise<boolean> {
    try {
      await db.transaction((tx) => storeResponse(tx, scope, failure, clock.now()));
      return true;
    } catch (e) {
      return !(isCmsError(e) && e.code === 'IDEMPOTENCY_KEY_IN_USE');
    }
  }

  let closed = false;
  engine = {
    config,
    db,
    handle,
    clock,
    log,
    metrics: null,
    services,
    events,
    kept,
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
      watch?.stop();
      events.removeAllListeners();
      if (unlisten) await unlisten().catch(() => {});
      if (ownsHandle) await handle.close();
      database.secureAfterClose();
    },
  };
  return engine;
}

/** How a run that held an Idempotency-Key ended: it ran the request, replayed a stored answer, or failed. */
type HolderOutcome = 'ran' | 'replayed' | 'failed';

/** The last word of a content notice when the project's own row did not change. */
const contentOnly = 'content';

/** How often an engine whose content is kept polls the revisions on PostgreSQL (see watchRevisions). */
const revisionWatchMs = 2000;

/**
 * Polls every project's revision (the sum of its slots), while someone keeps content, and calls
 * `changed` for each one that moved by more than this engine's own writes since the last poll (those
 * were announced at their commit): a safety net under NOTIFY, which can be lost. The timer never
 * keeps the process alive, and a failed poll is logged once and tried again at the next tick.
 */
async function watchRevisions(db: Db, everyMs: number, wanted: () => boolean, changed: (projectId: string) => void, log: Logger) {
  let seen: Map<string, number> | null = null;
  let own = new Map<string, number>();
  let failing = false;
  const poll = async (): Promise<void> => {
    // Own writes counted from here on committed after this poll began: they belong to the next.
    const ownThisTick = own;
    own = new Map();
    try {
      const rows = await db.select({ projectId: contentRevisions.projectId, revision: sql<number>`sum(${contentRevisions.revision})`.mapWith(Number) })
        .from(contentRevisions).groupBy(contentRevisions.projectId);
      const recovered = failing;
      failing = false;
      const now = new Map(rows.map((r) => [r.projectId, r.revision]));
      if (seen) {
        for (const [projectId, revision] of now) {
          if (revision - (seen.get(projectId) ?? 0) > (ownThisTick.get(projectId) ?? 0)) changed(projectId);
        }
      } else if (recovered) {
        // What changed while the revisions could not be read is not known: everything may have.
        for (const projectId of now.keys()) changed(projectId);
      }
      seen = now;
    } catch (e) {
      if (!failing) log.warn('could not read the content revisions', { error: String(e) });
      failing = true;
      seen = null;
    }
  };
  // One poll at a time. `fresh` answers a poll that begins after the call (the one running may
  // have read before a write the caller knows of); every caller meanwhile shares that one.
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const fresh = (): Promise<void> => {
    if (queued) return queued;
    const next = (running ?? Promise.resolve()).then(() => {
      queued = null;
      const run: Promise<void> = poll().finally(() => { if (running === run) running = null; });
      running = run;
      return run;
    });
    queued = next;
    return next;
  };
  // The baseline is read before the engine answers anything: read at the first tick instead (2 s
  // on), it counted in another process's writes made meanwhile, whose notices were lost, and the
  // answers kept before them were never found stale.
  await fresh();
  const timer = setInterval(() => {
    if (running || queued) return;
    // Nobody keeps content (a CLI command, a script): nothing to poll. What was last seen stays the
    // baseline, and own writes go on counting against it: content kept again later is still found
    // stale after another process's write whose notice was lost.
    if (!wanted() && seen) return;
    void fresh();
  }, everyMs);
  timer.unref();
  return {
    stop: () => clearInterval(timer),
    fresh,
    /** A content write of this engine committed (and was announced here). */
    ownWrite(projectId: string) { own.set(projectId, (own.get(projectId) ?? 0) + 1); },
  };
}

/** The NOTIFY channel on which servers sharing a PostgreSQL database tell each other they are there. */
const serversChannel = 'cms_servers';
/** How often a server says it is still there, and how long it is counted without a word. */
const serverHeartbeatMs = 20_000;
const serverSilenceMs = 65_000;

/**
 * Servers that answer from what they keep (`cms serve`) tell each other, on one database, that
 * they are there: `hello` when one starts (the others answer `here`), `here` every 20 s, `bye` when
 * it stops. While another one is there, every public read first waits for a revision poll begun
 * after it came (`kept.barrier`): a write the other server has answered is then seen here, though
 * its notice has not arrived yet. One poll serves every read that came meanwhile, so a busy server
 * pays one round trip per batch of reads; a lone server (and a CLI command) pays nothing.
 */
async function watchOtherServers(handle: DbHandle, db: Db, instance: string, kept: Kept,
  watch: { fresh(): Promise<void> }, log: Logger): Promise<() => Promise<void>> {
  const others = new Map<string, number>();
  const say = (word: 'hello' | 'here' | 'bye') => db.execute(sql`select pg_notify(${serversChannel}, ${`${instance} ${word}`})`)
    .then(() => undefined, (e: unknown) => log.warn('could not tell the other servers', { error: String(e) }));
  const off = await handle.listen(serversChannel, (payload) => {
    const [from = '', word] = payload.split(' ');
    if (from === instance) return;
    if (word === 'bye') {
      others.delete(from);
      return;
    }
    others.set(from, Date.now());
    if (word === 'hello' && kept.followed) void say('here');
  });
  kept.setBarrier(() => {
    if (others.size === 0) return undefined;
    const now = Date.now();
    for (const [id, at] of others) if (now - at > serverSilenceMs) others.delete(id);
    return others.size > 0 ? watch.fresh() : undefined;
  });
  let timer: NodeJS.Timeout | undefined;
  kept.onFollow(() => {
    void say('hello');
    timer = setInterval(() => { void say('here'); }, serverHeartbeatMs);
    timer.unref();
  });
  return async () => {
    clearInterval(timer);
    if (kept.followed) await say('bye');
    await off();
  };
}

const projectColumns = { id: projects.id, slug: projects.slug, locales: projects.locales, defaultLocale: projects.defaultLocale };

const projectRefOf = (row: { id: string; slug: string; locales: Locale[]; defaultLocale: string }): ProjectRef =>
  ({ id: row.id, slug: row.slug, locales: { defaultLocale: row.defaultLocale, locales: row.locales } });

/** Revision slots per project on PostgreSQL (see contentRevisions). */
const revisionSlots = 64;

/** A content write's revision bump (built once: it runs with every content write). */
const bumpRevisionSlot = builtOnce<{ projectId: string; slot: number }>((db, v) =>
  db.insert(contentRevisions).values({ ...v, revision: 1 }).onConflictDoUpdate({
    target: [contentRevisions.projectId, contentRevisions.slot],
    set: { revision: sql`${contentRevisions.revision} + 1`, updatedAt: sql`now()` },
  }));

/**
 * NOTIFYs sent after commits, shared: a caller waits for a notice that starts after it asked
 * (so after its commit), and every caller that asks while one is being sent shares the next
 * one. Under load that is one NOTIFY per round trip for many writes; alone, one each. A failed
 * NOTIFY is not the write's failure (it committed): the revision still tells readers.
 */
function sharedNotices(send: (payload: string) => Promise<unknown>): { send(payload: string): Promise<void> } {
  const slots = new Map<string, { running: Promise<void> | null; next: Promise<void> | null }>();
  return {
    send(payload) {
      let slot = slots.get(payload);
      if (!slot) { slot = { running: null, next: null }; slots.set(payload, slot); }
      if (slot.next) return slot.next;
      const own = slot;
      own.next = (own.running ?? Promise.resolve()).then(() => {
        own.next = null;
        const sent = send(payload).then(() => undefined, () => undefined);
        own.running = sent;
        void sent.then(() => { if (own.running === sent) own.running = null; });
        return sent;
      });
      return own.next;
    },
  };
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
  // Every write checks that what it names exists; a foreign key refusing a row means it was
  // deleted by a write that committed meanwhile (the type of a page being created, say).
  if (err?.code === '23503') {
    return new CmsError('CONFLICT', 'Something this write names was deleted at the same time; nothing was written. Try again');
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
