import { and, eq, lt, sql } from 'drizzle-orm';
import { builtOnce, encodedAs } from '../db/built-once.js';
import { isNotNullViolation, type Db } from '../db/client.js';
import { idempotencyRecords } from '../db/schema/index.js';
import { CmsError } from './errors.js';

/** Stored answers live 24 hours; after that a key may be used again. */
export const idempotencyTtlMs = 24 * 60 * 60 * 1000;

export interface IdempotencyScope {
  apiKeyId: string;
  key: string;
  /** Hash of method, path and body: the same key with another request is refused. */
  requestHash: string;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

export function checkIdempotencyKey(key: string | null): string {
  if (key === null || key === '') {
    throw new CmsError('IDEMPOTENCY_KEY_REQUIRED', 'Writes need an Idempotency-Key header (1 to 255 printable characters), unique per request');
  }
  // Printable: ASCII, and the Latin-1 letters and signs a header value can carry (é, ü, ß, £);
  // no control characters (tab, line breaks, DEL, C1).
  if (key.length > 255 || !/^[\x20-\x7e\xa0-\xff]+$/.test(key)) {
    throw new CmsError('IDEMPOTENCY_KEY_REQUIRED', 'The Idempotency-Key must be 1 to 255 printable characters (ASCII or Latin-1; no control characters)');
  }
  return key;
}

/** A stored answer for this key, or null; a different request under the same key is refused. */
export async function findStoredResponse(db: Db, scope: IdempotencyScope, now: Date): Promise<StoredResponse | null> {
  const [row] = await db.select().from(idempotencyRecords)
    .where(and(eq(idempotencyRecords.apiKeyId, scope.apiKeyId), eq(idempotencyRecords.key, scope.key)));
  if (!row || row.expiresAt <= now) return null;
  if (row.requestHash !== scope.requestHash) {
    throw new CmsError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request; use a new key for a new request');
  }
  return { status: row.responseStatus, body: row.responseBody };
}

/**
 * Stores the answer; called inside the write's transaction, so a rollback leaves no record. One
 * statement: an expired record under the key is replaced; a live one (another request under the
 * key committed first) refuses the store. The refusal is the database's own failure, not a check
 * of what the statement returned: the live record's expiry would become NULL, which the column
 * refuses. A transaction whose COMMIT goes out with this statement (finishTransaction,
 * src/db/pipelined-transactions.ts) then rolls back, never commits past it.
 */
export async function storeResponse(db: Db, scope: IdempotencyScope, response: StoredResponse, now: Date): Promise<void> {
  try {
    await upsertRecord(db, {
      apiKeyId: scope.apiKeyId,
      key: scope.key,
      requestHash: scope.requestHash,
      responseStatus: response.status,
      responseBody: response.body,
      createdAt: now,
      expiresAt: new Date(now.getTime() + idempotencyTtlMs),
      now,
    });
  } catch (e) {
    if (isNotNullViolation(e)) throw new CmsError('IDEMPOTENCY_KEY_IN_USE', 'Another request with this Idempotency-Key is running or has just finished');
    throw e;
  }
}

/** The store's statement, built once (it runs with every idempotent write). */
const upsertRecord = builtOnce<typeof idempotencyRecords.$inferInsert & { now: Date }>((db, { now, ...record }) =>
  db.insert(idempotencyRecords).values(record).onConflictDoUpdate({
    target: [idempotencyRecords.apiKeyId, idempotencyRecords.key],
    set: {
      requestHash: sql`excluded.request_hash`,
      responseStatus: sql`excluded.response_status`,
      responseBody: sql`excluded.response_body`,
      createdAt: sql`excluded.created_at`,
      expiresAt: sql`case when ${idempotencyRecords.expiresAt} < ${encodedAs(now, idempotencyRecords.expiresAt)} then excluded.expires_at end`,
    },
  }));

export async function purgeExpired(db: Db, now: Date): Promise<void> {
  await db.delete(idempotencyRecords).where(lt(idempotencyRecords.expiresAt, now));
}
