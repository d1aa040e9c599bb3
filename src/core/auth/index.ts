import { login } from './login.js';
import { logout } from './logout.js';
import { me } from './me.js';

export { findSessionUser, listMemberships, sessionLifetimeMs, type MembershipView, type SessionUser } from './session.js';
export { knownAddressMs, loginLimits, type ThrottleKey } from './throttle.js';

/** The auth operations, by name; core/registry.ts merges them into the one table. */
export const authOperations = {
  'auth.login': login,
  'auth.logout': logout,
  'auth.me': me,
} as const;
