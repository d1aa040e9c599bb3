import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { isTransaction } from './webhooks/outbox.js';

/**
 * Locks that keep "a delete is refused while content names it" true when a write naming a thing
 * and the delete of that thing run at once (PostgreSQL runs them side by side: each saw the other
 * not yet committed, both went through, and the content named a deleted thing).
 *
 * A write holds a shared lock on each page, item, post or media it names, taken before it looks
 * them up; a delete takes the exclusive lock of what it deletes (after locking its row) before it
 * looks for what names it. Whichever comes second waits for the first to commit and then sees it:
 * the write finds the thing gone (400), or the delete finds the write's reference (409). Writes
 * never wait for each other (shared locks), and a delete holds no other such lock, so no two
 * transactions wait for each other in a circle. Advisory locks live in the lock table only (no
 * row is written), one namespace for every kind: ids are UUIDs. Outside a transaction there is
 * nothing to hold, and nothing is done.
 */
const keyOf = (id: string) => `ref:${id.toLowerCase()}`;

/**
 * Holds what a write names (ids well-formed UUIDs) until the write commits. The statement is sent
 * as this is called, so a lookup the caller starts right after (with `.execute()`) goes out behind
 * it in the same round trip, and runs after it: await both together (`Promise.all`).
 */
export function holdReferenced(db: Db, ids: readonly string[]): Promise<unknown> {
  if (ids.length === 0 || !isTransaction(db)) return Promise.resolve();
  const locks = [...new Set(ids.map(keyOf))].sort().map((key) => sql`pg_advisory_xact_lock_shared(hashtextextended(${key}, 0))`);
  // `.execute()` sends it now: awaited, drizzle's raw query would be sent only then, after a
  // lookup started meanwhile.
  return db.execute(sql`select ${sql.join(locks, sql`, `)}`).execute();
}

/** Holds the thing a delete removes, so that no write can name it until the delete commits. */
export async function holdForDelete(db: Db, id: string): Promise<void> {
  if (!isTransaction(db)) return;
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${keyOf(id)}, 0))`);
}
