import type { PendingQuery, ReservedSql, Sql } from 'postgres';
import { propertyOf } from '../lib/unknown-values.js';

/**
 * Transactions on PostgreSQL that spend two round trips fewer. postgres.js's `begin` waits for
 * BEGIN's answer before the transaction's first statement is sent, and drizzle's transaction
 * sends COMMIT only once the last statements have answered: on a 2-core machine each round trip
 * costs the server a socket write and a wake-up on both sides (about a third of a page
 * creation's CPU went to socket writes, 7.9 of them per creation). Here BEGIN goes out with the
 * first statements, and `finishTransaction` sends COMMIT with the last ones.
 *
 * Safe because PostgreSQL runs a connection's statements in the order they arrive, each in its
 * own extended-protocol sync: a statement that fails aborts the transaction, every later one
 * fails too, and a COMMIT of an aborted transaction answers ROLLBACK (told here as a failure,
 * never as success).
 */

/** A statement's values, as postgres.js takes them (drizzle hands them on as they are). */
type Params = Parameters<ReservedSql['unsafe']>[1];

/** What drizzle's postgres-js session calls on a transaction's client. */
interface TxClient {
  unsafe(query: string, params?: Params, options?: object): PendingQuery<never[]>;
  savepoint<T>(fn: (client: TxClient) => Promise<T>): Promise<T>;
}

interface TxState {
  reserved: ReservedSql;
  prepare: boolean;
  /** The first statement that failed (a transaction with one cannot commit). */
  failed: unknown;
  /** A statement failed because the connection is gone: it cannot be used or released again. */
  connectionLost: boolean;
  /** Set when COMMIT is on its way: nothing more may be sent in the transaction. */
  ending: Promise<void> | null;
  savepoints: number;
}

/** The transactions' clients, for `finishTransaction` to find from drizzle's transaction. */
const states = new WeakMap<object, TxState>();

const isConnectionError = (e: unknown): boolean => {
  const code = propertyOf(e, 'code');
  return typeof code === 'string' && code.startsWith('CONNECTION_');
};

function send(state: TxState, query: string, params: Params = [], options: object = {}): PendingQuery<never[]> {
  if (state.ending) throw new Error('A statement was sent after its transaction\'s COMMIT (finishTransaction must come last)');
  const q = state.reserved.unsafe<never[]>(query, params, state.prepare ? { ...options, prepare: true } : options);
  // Attached now, as postgres.js's own transactions do: the statement is sent a microtask later
  // (after drizzle's .values()), and any failure marks the transaction.
  q.catch((e: unknown) => {
    if (state.failed === undefined) state.failed = e;
    if (isConnectionError(e)) state.connectionLost = true;
  });
  return q;
}

function clientOf(state: TxState): TxClient {
  const client: TxClient = {
    unsafe: (query, params, options) => send(state, query, params, options),
    async savepoint(fn) {
      const name = `s${++state.savepoints}`;
      const outer = state.failed;
      await send(state, `savepoint ${name}`);
      try {
        const result = await fn(client);
        if (state.failed !== outer) throw state.failed;
        return result;
      } catch (e) {
        if (!state.connectionLost) {
          await send(state, `rollback to savepoint ${name}`);
          // Rolled back to the savepoint: the transaction can go on.
          state.failed = outer;
        }
        throw e;
      }
    },
  };
  states.set(client, state);
  return client;
}

/**
 * The client given to drizzle (`drizzle(pipelinedBegin(client, prepare))`): `begin(fn)` runs as
 * described above; everything else is the client's own. A `begin` with options goes to postgres.js.
 */
export function pipelinedBegin<T extends Sql>(client: T, prepare: boolean): T {
  async function begin(fn: (client: TxClient) => Promise<unknown>): Promise<unknown> {
    const reserved = await client.reserve();
    const state: TxState = { reserved, prepare, failed: undefined, connectionLost: false, ending: null, savepoints: 0 };
    try {
      // Not awaited: sent with the first statement (queued first, so it reaches the server first).
      void send(state, 'begin').catch(() => {});
      let result: unknown;
      try {
        result = await fn(clientOf(state));
        if (state.failed !== undefined) throw state.failed;
        if (state.ending) await state.ending;
        else await commit(state);
      } catch (e) {
        if (!state.connectionLost && !state.ending) {
          state.ending = Promise.resolve();
          await state.reserved.unsafe('rollback').catch(() => {});
        }
        throw e;
      }
      return result;
    } finally {
      // A connection that was lost is postgres.js's again (it connects anew); released, it
      // would be handed out dead.
      if (!state.connectionLost) reserved.release();
    }
  }
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop !== 'begin') return Reflect.get(target, prop, receiver);
      return (...args: unknown[]) => {
        const fn = args[0];
        if (args.length === 1 && typeof fn === 'function') return begin((c) => Promise.resolve(fn(c)));
        return Reflect.apply(Reflect.get(target, prop, receiver), target, args);
      };
    },
  });
}

/** Sends COMMIT; an aborted transaction's COMMIT answers ROLLBACK, a failure here. */
async function commit(state: TxState): Promise<void> {
  const answer = state.reserved.unsafe('commit');
  state.ending = answer.then(() => undefined, () => undefined);
  let rows;
  try {
    rows = await answer;
  } catch (e) {
    if (isConnectionError(e)) state.connectionLost = true;
    throw e;
  }
  if (rows.command === 'ROLLBACK') throw state.failed ?? new Error('The transaction was rolled back: a statement in it failed');
}

/**
 * Ends a write transaction's work with its last statements, which do not depend on each other,
 * sent together and, in a transaction of `pipelinedBegin`, with its COMMIT: waits for all and
 * rejects with the first failure in the list's order. Nothing may be sent in the transaction
 * afterwards. Elsewhere (PGlite) it only waits for the statements; the commit follows as usual.
 *
 * What each promise must keep to, since COMMIT does not wait for their answers:
 * - it sends all its statements at once, never one after another's answer: COMMIT is handed to
 *   the driver in the next check phase of the event loop, after this turn's microtasks (and
 *   postgres.js writes what it was handed in that phase, so it all goes in one or two socket
 *   writes); a statement sent later is refused with an error, after the COMMIT;
 * - it fails only through the database (a statement's error), never by a check of what a
 *   statement answered: by then the transaction has committed. A refusal belongs in SQL (a
 *   unique index, say: storeResponse in src/core/idempotency.ts).
 */
export async function finishTransaction(tx: object, last: Array<Promise<unknown> | undefined>): Promise<void> {
  // drizzle keeps the transaction's client as its session's client.
  const state = states.get(Object(propertyOf(propertyOf(tx, 'session'), 'client')));
  // COMMIT's own failure, or null; waited for whatever the statements do, so that the
  // transaction has ended (committed, or rolled back by the server) when this returns.
  const committed = state && !state.ending
    ? new Promise<unknown>((resolve) => { setImmediate(() => { commit(state).then(() => resolve(null), resolve); }); })
    : null;
  const settled = await Promise.allSettled(last);
  const commitFailure = await committed;
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  if (commitFailure) throw commitFailure;
}
