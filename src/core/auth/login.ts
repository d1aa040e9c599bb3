import { and, eq, lte } from 'drizzle-orm';
import { z } from 'zod';
import { sessions, users } from '../../db/schema/index.js';
import { dummyPasswordHash, randomToken, sha256Hex, verifyPassword } from '../../lib/crypto.js';
import { CmsError } from '../errors.js';
import { defineOperation } from '../operation.js';
import { sessionLifetimeMs } from './session.js';
import { clearAfterSuccess, isKnownAddress, loginLimits, rememberAddress, reserveAttempt, type ThrottleKey } from './throttle.js';

/** One answer for an unknown email and a wrong password, so it never tells which it was. */
const badCredentials = () => new CmsError('UNAUTHORIZED', 'Email or password is incorrect');

export const login = defineOperation({
  name: 'auth.login',
  input: z.strictObject({
    email: z.string().trim().min(1).max(320).transform((e) => e.toLowerCase()),
    password: z.string().min(1).max(1024),
    /**
     * The client's address when the door knows it (HTTP with server.trustProxy set); failures
     * are then also counted per address.
     */
    ip: z.string().min(1).max(100).optional(),
  }),
  // Whoever signs in has no credentials yet: the email and password are checked here.
  access: { role: null, anonymous: true },
  // The password check (scrypt) must not hold a transaction open, so this runs as a read and
  // opens short transactions of its own: the reservation before the check, the session after.
  write: false,
  global: true,
  async run(ctx, input) {
    const now = ctx.clock.now();
    const account: ThrottleKey = { key: `account:${input.email}`, ...loginLimits.account };
    const [user] = await ctx.db.select().from(users).where(eq(users.email, input.email));
    const keys = [account];
    // Failures of others at the same address never lock out a user who has signed in from it.
    if (input.ip && !(user && await isKnownAddress(ctx.db, user.id, input.ip, now))) {
      keys.push({ key: `address:${input.ip}`, ...loginLimits.address });
    }
    // Counted before the password is checked: attempts sent at once cannot outrun the limit.
    const reservation = await reserveAttempt(ctx.db, keys, now);
    if (!reservation.ok) {
      const wait = reservation.retryAfter;
      throw new CmsError('RATE_LIMITED', `Too many failed sign-ins; try again in ${wait} seconds`, { retryAfter: wait });
    }

    // Without a user, a dummy hash is checked all the same, so timing does not tell either.
    const ok = await verifyPassword(input.password, user?.passwordHash ?? dummyPasswordHash);
    // A failure keeps its reserved attempts: they are the count.
    if (!user || !ok) throw badCredentials();
    const token = randomToken(32);
    const expiresAt = new Date(now.getTime() + sessionLifetimeMs);
    await ctx.db.transaction(async (tx) => {
      await clearAfterSuccess(tx, reservation.ids, account);
      if (input.ip) await rememberAddress(tx, user.id, input.ip, now);
      // Housekeeping: this user's expired sessions go as a new one comes.
      await tx.delete(sessions).where(and(eq(sessions.userId, user.id), lte(sessions.expiresAt, now)));
      await tx.insert(sessions).values({ tokenHash: sha256Hex(token), userId: user.id, expiresAt, createdAt: now });
    });
    return {
      token,
      expiresAt: expiresAt.toISOString(),
      user: { id: user.id, email: user.email, name: user.name },
    };
  },
});
