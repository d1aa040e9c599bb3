import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { memberships, users } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { hashPassword } from '../../lib/crypto.js';
import { CmsError } from '../errors.js';
import { defineOperation } from '../operation.js';
import { roles, storedRole, type Role } from '../roles.js';

export const emailSchema = z.email().max(320).transform((e) => e.toLowerCase());

export interface MemberView {
  id: string;
  email: string;
  name: string;
  role: Role;
  createdAt: string;
}

async function listMembersOf(db: Db, projectId: string): Promise<MemberView[]> {
  const rows = await db.select({ id: users.id, email: users.email, name: users.name, role: memberships.role, createdAt: memberships.createdAt })
    .from(memberships).innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.projectId, projectId)).orderBy(asc(users.email));
  return rows.map((r) => ({ ...r, role: storedRole(r.role), createdAt: r.createdAt.toISOString() }));
}

export const createUser = defineOperation({
  name: 'users.create',
  input: z.strictObject({
    email: emailSchema,
    password: z.string().min(8, 'must be at least 8 characters').max(1024),
    role: z.enum(roles),
    name: z.string().min(1).max(255).optional(),
  }),
  access: { role: 'admin' },
  write: true,
  async run(ctx, input) {
    if (ctx.actor.kind === 'user' && input.role === 'owner' && ctx.actor.role !== 'owner') {
      throw new CmsError('FORBIDDEN', 'Only an owner can make another owner');
    }
    const [existing] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, input.email));
    if (existing) throw new CmsError('CONFLICT', `A user with the email ${input.email} already exists; add them to a project with \`cms users add --email ${input.email} --role <role>\``);
    const now = ctx.clock.now();
    const [user] = await ctx.db.insert(users).values({
      email: input.email,
      name: input.name ?? input.email.split('@')[0]!,
      passwordHash: await hashPassword(input.password),
      createdAt: now,
      updatedAt: now,
    }).returning();
    await ctx.db.insert(memberships).values({ projectId: ctx.project.id, userId: user!.id, role: input.role, createdAt: now });
    // Members are what user references resolve to in public reads: kept answers are stale now.
    ctx.contentChanged();
    return { id: user!.id, email: user!.email, name: user!.name, role: input.role, createdAt: user!.createdAt.toISOString() };
  },
});

export const listUsers = defineOperation({
  name: 'users.list',
  input: z.strictObject({}),
  access: { role: 'admin' },
  write: false,
  run: (ctx) => listMembersOf(ctx.db, ctx.project.id),
});

export const listMembers = defineOperation({
  name: 'members.list',
  input: z.strictObject({}),
  access: { role: 'admin' },
  write: false,
  run: (ctx) => listMembersOf(ctx.db, ctx.project.id),
});

/** A member as pickers show them: who, without their role. */
export interface MemberName { id: string; name: string; email: string }

/**
 * The project's members by name, for any member: what the editor's user reference picker searches
 * (the full list with roles, members.list, is an admin's).
 */
export const memberDirectory = defineOperation({
  name: 'members.directory',
  input: z.strictObject({}),
  access: { role: 'viewer' },
  write: false,
  async run(ctx): Promise<MemberName[]> {
    const members = await listMembersOf(ctx.db, ctx.project.id);
    return members.map(({ id, name, email }) => ({ id, name, email }));
  },
});

/**
 * Refuses to take the last owner away. The owners' rows are locked for the transaction: two
 * owners removing (or demoting) each other at once are counted one after the other, and the
 * second sees the first's change (on PostgreSQL both once went through, leaving no owner).
 */
async function ensureOwnerKept(db: Db, projectId: string, userId: string) {
  const owners = await db.select({ userId: memberships.userId }).from(memberships)
    .where(and(eq(memberships.projectId, projectId), eq(memberships.role, 'owner'))).for('update');
  if (owners.some((o) => o.userId === userId) && owners.length <= 1) {
    throw new CmsError('CONFLICT', 'The last owner of a project cannot be removed or demoted; make someone else owner first');
  }
}

export const addMember = defineOperation({
  name: 'members.add',
  input: z.strictObject({ email: emailSchema, role: z.enum(roles) }),
  access: { role: 'admin' },
  write: true,
  async run(ctx, input) {
    if (ctx.actor.kind === 'user' && input.role === 'owner' && ctx.actor.role !== 'owner') {
      throw new CmsError('FORBIDDEN', 'Only an owner can make another owner');
    }
    const [user] = await ctx.db.select().from(users).where(eq(users.email, input.email));
    if (!user) throw new CmsError('NOT_FOUND', `No user with the email ${input.email}; create one with \`cms users create\``);
    const [existing] = await ctx.db.select().from(memberships)
      .where(and(eq(memberships.projectId, ctx.project.id), eq(memberships.userId, user.id)));
    if (existing) throw new CmsError('CONFLICT', `${input.email} is already a member (${existing.role})`);
    const now = ctx.clock.now();
    await ctx.db.insert(memberships).values({ projectId: ctx.project.id, userId: user.id, role: input.role, createdAt: now });
    ctx.contentChanged();
    return { id: user.id, email: user.email, name: user.name, role: input.role, createdAt: now.toISOString() } satisfies MemberView;
  },
});

export const updateMember = defineOperation({
  name: 'members.update',
  input: z.strictObject({ userId: z.uuid(), role: z.enum(roles) }),
  access: { role: 'admin' },
  write: true,
  async run(ctx, input) {
    if (ctx.actor.kind === 'user' && input.role === 'owner' && ctx.actor.role !== 'owner') {
      throw new CmsError('FORBIDDEN', 'Only an owner can make another owner');
    }
    if (input.role !== 'owner') await ensureOwnerKept(ctx.db, ctx.project.id, input.userId);
    const [row] = await ctx.db.update(memberships).set({ role: input.role })
      .where(and(eq(memberships.projectId, ctx.project.id), eq(memberships.userId, input.userId))).returning();
    if (!row) throw new CmsError('NOT_FOUND', 'Member not found');
    const [member] = (await listMembersOf(ctx.db, ctx.project.id)).filter((m) => m.id === input.userId);
    return member!;
  },
});

export const removeMember = defineOperation({
  name: 'members.remove',
  input: z.strictObject({ userId: z.uuid() }),
  access: { role: 'admin' },
  write: true,
  async run(ctx, input) {
    await ensureOwnerKept(ctx.db, ctx.project.id, input.userId);
    const [row] = await ctx.db.delete(memberships)
      .where(and(eq(memberships.projectId, ctx.project.id), eq(memberships.userId, input.userId))).returning();
    if (!row) throw new CmsError('NOT_FOUND', 'Member not found');
    // A reference to a user who is no longer a member resolves to null.
    ctx.contentChanged();
    return { success: true as const };
  },
});
