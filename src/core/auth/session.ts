import { and, asc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { memberships, projects, sessions, users } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/crypto.js';
import { storedRole, type Role } from '../roles.js';

/** Sessions last a fixed 7 days from sign-in (no sliding renewal): sign in again after that. */
export const sessionLifetimeMs = 7 * 24 * 60 * 60 * 1000;

export interface SessionUser {
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  expiresAt: Date;
}

export interface MembershipView {
  project: { id: string; slug: string; name: string };
  role: Role;
}

/** The user behind a session token, or null when it is unknown or expired. Not an operation: the doors use it to learn who calls. */
export async function findSessionUser(db: Db, token: string, now: Date): Promise<SessionUser | null> {
  if (!token) return null;
  const [row] = await db.select({
    sessionId: sessions.id, userId: users.id, email: users.email, name: users.name, expiresAt: sessions.expiresAt,
  }).from(sessions).innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sha256Hex(token)), gt(sessions.expiresAt, now)));
  return row ?? null;
}

export async function listMemberships(db: Db, userId: string): Promise<MembershipView[]> {
  const rows = await db.select({ id: projects.id, slug: projects.slug, name: projects.name, role: memberships.role })
    .from(memberships).innerJoin(projects, eq(projects.id, memberships.projectId))
    .where(eq(memberships.userId, userId)).orderBy(asc(projects.slug));
  return rows.map((r) => ({ project: { id: r.id, slug: r.slug, name: r.name }, role: storedRole(r.role) }));
}
