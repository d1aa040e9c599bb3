import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { loginAttempts, loginKnownAddresses } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/crypto.js';

/**
 * Sign-in throttling, kept in the database so every server process on one database counts
 * together. An attempt is reserved (counted) before its password is checked, under a lock per
 * counted key, so attempts sent at once cannot all get past the limit before any fails.
 */

export interface ThrottleKey {
  key: string;
  /** Attempts allowed inside the window before further attempts are refused. */
  limit: number;
  windowMs: number;
}

export const loginLimits = {
  /** Failures per account (by email, whether or not it exists: the answer must not tell). */
  account: { limit: 5, windowMs: 15 * 60_000 },
  /** Failures per client address: higher, since one address may front several people. */
  address: { limit: 20, windowMs: 15 * 60_000 },
} as const;

/** How long a successful sign-in from an address keeps that address known for the user. */
export const knownAddressMs = 30 * 24 * 60 * 60_000;

const longestWindowMs = Math.max(loginLimits.account.windowMs, loginLimits.address.windowMs);

export type Reservation =
  | { ok: true; ids: number[] }
  | { ok: false; retryAfter: number };

/**
 * Counts one attempt against every key, unless a key is already at its limit: then nothing is
 * counted and the answer says how many seconds until the most limited key frees up.
 */
export async function reserveAttempt(db: Db, keys: ThrottleKey[], now: Date): Promise<Reservation> {
  const hashed = keys.map((k) => ({ ...k, hash: sha256Hex(k.key) })).sort((a, b) => (a.hash < b.hash ? -1 : 1));
  return db.transaction(async (tx) => {
    // One lock per key, always taken in the same order, so two reservations never deadlock.
    for (const k of hashed) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${k.hash}, 7263542))`);
    }
    // Housekeeping: attempts that have left every window are forgotten.
    await tx.delete(loginAttempts).where(lte(loginAttempts.attemptedAt, new Date(now.getTime() - longestWindowMs)));
    let wait: number | null = null;
    for (const k of hashed) {
      const recent = await tx.select({ at: loginAttempts.attemptedAt }).from(loginAttempts)
        .where(and(eq(loginAttempts.keyHash, k.hash), gt(loginAttempts.attemptedAt, new Date(now.getTime() - k.windowMs))))
        .orderBy(sql`${loginAttempts.attemptedAt} desc`, sql`${loginAttempts.id} desc`)
        .limit(k.limit);
      if (recent.length < k.limit) continue;
      // Allowed again once the limit-th latest attempt has left the window.
      const freesAt = recent[k.limit - 1]!.at.getTime() + k.windowMs;
      const seconds = Math.max(1, Math.ceil((freesAt - now.getTime()) / 1000));
      wait = Math.max(wait ?? 0, seconds);
    }
    if (wait !== null) return { ok: false, retryAfter: wait };
    const rows = await tx.insert(loginAttempts)
      .values(hashed.map((k) => ({ keyHash: k.hash, attemptedAt: now })))
      .returning({ id: loginAttempts.id });
    return { ok: true, ids: rows.map((r) => r.id) };
  });
}

/**
 * A successful sign-in: its own reserved attempts are not failures, and the account's earlier
 * failures are forgotten. Attempts reserved after it (still running) keep counting.
 */
export async function clearAfterSuccess(db: Db, reserved: number[], account: ThrottleKey): Promise<void> {
  const accountHash = sha256Hex(account.key);
  const own = await db.delete(loginAttempts).where(inArray(loginAttempts.id, reserved))
    .returning({ id: loginAttempts.id, keyHash: loginAttempts.keyHash });
  const ownAccountRow = own.find((r) => r.keyHash === accountHash)?.id ?? Math.max(0, ...reserved);
  await db.delete(loginAttempts).where(and(eq(loginAttempts.keyHash, accountHash), lte(loginAttempts.id, ownAccountRow)));
}

/** Whether the user signed in successfully from this address lately. */
export async function isKnownAddress(db: Db, userId: string, address: string, now: Date): Promise<boolean> {
  const [row] = await db.select({ at: loginKnownAddresses.lastSuccessAt }).from(loginKnownAddresses)
    .where(and(eq(loginKnownAddresses.userId, userId), eq(loginKnownAddresses.addressHash, sha256Hex(address))));
  return !!row && row.at.getTime() > now.getTime() - knownAddressMs;
}

export async function rememberAddress(db: Db, userId: string, address: string, now: Date): Promise<void> {
  await db.insert(loginKnownAddresses).values({ userId, addressHash: sha256Hex(address), lastSuccessAt: now })
    .onConflictDoUpdate({ target: [loginKnownAddresses.userId, loginKnownAddresses.addressHash], set: { lastSuccessAt: now } });
  // One user's list stays short: addresses not used for a while are dropped.
  await db.delete(loginKnownAddresses)
    .where(and(eq(loginKnownAddresses.userId, userId), lte(loginKnownAddresses.lastSuccessAt, new Date(now.getTime() - knownAddressMs))));
}
