import { z } from 'zod';
import { CmsError } from '../errors.js';
import { defineOperation } from '../operation.js';
import { findSessionUser, listMemberships } from './session.js';

export const me = defineOperation({
  name: 'auth.me',
  // The session token is the credential; no project is involved, so none needs naming.
  input: z.strictObject({ token: z.string().max(200) }),
  access: { role: null, anonymous: true },
  write: false,
  global: true,
  async run(ctx, input) {
    const user = await findSessionUser(ctx.db, input.token, ctx.clock.now());
    if (!user) throw new CmsError('UNAUTHORIZED', 'Your session has expired or ended; sign in again');
    return {
      user: { id: user.userId, email: user.email, name: user.name },
      memberships: await listMemberships(ctx.db, user.userId),
      session: { expiresAt: user.expiresAt.toISOString() },
    };
  },
});
