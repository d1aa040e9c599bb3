import { and, eq, lt } from 'drizzle-orm';
import { builtOnce, encodedAs } from '../db/built-once.js';
import { isUniqueViolation, type Db } from '../db/client.js';
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
 * Stores the answer; called inside the write's transaction, so a rollback leaves no record. Two
 * statements sent together: an expired record under the key is deleted, and the insert that
 * follows is refused by the unique index when a live one is there (another request under the key
 * committed first). The refusal is the database's own failure, not a check of what the statement
 * returned: a transaction whose COMMIT goes out with these statements (finishTransaction,
 * src/db/pipelined-transactions.ts) then rolls back, never commits past it.
 */
export async function storeResponse(db: Db, scope: IdempotencyScope, response: StoredResponse, now: Date): Promise<void> {
  // Both run through the same built statement path, so the delete reaches the database first.
  const stored = Promise.all([
    deleteExpiredRecord(db, { apiKeyId: scope.apiKeyId, key: scope.key, now }),
    insertRecord(db, {
      apiKeyId: scope.apiKeyId,
      key: scope.key,
      requestHash: scope.requestHash,
      responseStatus: response.status,
      responseBody: response.body,
      createdAt: now,
      expiresAt: new Date(now.getTime() + idempotencyTtlMs),
    }),
  ]);
  try {
    await stored;
  } catch (e) {
    if (isUniqueViolation(e)) throw new CmsError('IDEMPOTENCY_KEY_IN_USE', 'Another request with this Idempotency-Key is running or has just finished');
    throw e;
  }
}

/** The store's statements, built once (they run with every idempotent write). */
const deleteExpiredRecord = builtOnce<{ apiKeyId: string; key: string; now: Date }>((db, { apiKeyId, key, now }) =>
  db.delete(idempotencyRecords).where(and(
    eq(idempotencyRecords.apiKeyId, apiKeyId),
    eq(idempotencyRecords.key, key),
    lt(idempotencyRecords.expiresAt, encodedAs(now, idempotencyRecords.expiresAt)),
  )));
const insertRecord = builtOnce<typeof idempotencyRecords.$inferInsert>((db, record) => db.insert(idempotencyRecords).values(record));

export async function purgeExpired(db: Db, now: Date): Promise<void> {
  await db.delete(idempotencyRecords).where(lt(idempotencyRecords.expiresAt, now));
}
