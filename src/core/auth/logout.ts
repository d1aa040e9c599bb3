import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { sessions } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/crypto.js';
import { defineOperation } from '../operation.js';

export const logout = defineOperation({
  name: 'auth.logout',
  // The session token is the credential: whoever holds it may end it.
  input: z.strictObject({ token: z.string().max(200) }),
  access: { role: null, anonymous: true },
  write: true,
  global: true,
  async run(ctx, input) {
    // Ending an unknown or expired session is not an error: the outcome is the same.
    if (input.token) await ctx.db.delete(sessions).where(eq(sessions.tokenHash, sha256Hex(input.token)));
    return { success: true as const };
  },
});
