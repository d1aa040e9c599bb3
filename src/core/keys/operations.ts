import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import { z } from 'zod';
import { apiKeys } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import { iso } from '../../lib/iso.js';
import type { Actor } from '../actor.js';
import { CmsError } from '../errors.js';
import { defineOperation } from '../operation.js';
import { isPermission, keyTypes, permissions, storedKeyType, type KeyType, type Permission } from '../roles.js';

const prefixes: Record<KeyType, string> = { public: 'svc_pk_', secret: 'svc_sk_', preview: 'preview_' };

export interface KeyView {
  id: string;
  type: KeyType;
  name: string;
  prefix: string;
  permissions: Permission[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const toView = (row: typeof apiKeys.$inferSelect): KeyView => ({
  id: row.id,
  type: storedKeyType(row.type),
  name: row.name,
  prefix: row.keyPrefix,
  // Unknown words grant nothing.
  permissions: row.permissions.filter(isPermission),
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: iso(row.lastUsedAt),
  revokedAt: iso(row.revokedAt),
});

const permissionList = z
  .union([z.array(z.string()), z.string()])
  .transform((v, ctx) => {
    const list = Array.isArray(v) ? v : v.split(',').map((s) => s.trim()).filter(Boolean);
    const known: Permission[] = [];
    for (const p of list) {
      if (!isPermission(p)) {
        ctx.addIssue({ code: 'custom', message: `unknown permission "${p}" (known: ${permissions.join(', ')})` });
        return z.NEVER;
      }
      known.push(p);
    }
    return [...new Set(known)];
  });

export const createKey = defineOperation({
  name: 'keys.create',
  input: z.strictObject({
    type: z.enum(keyTypes),
    name: z.string().min(1).max(255).optional(),
    permissions: permissionList.optional(),
  }),
  access: { role: 'admin' },
  write: true,
  async run(ctx, input) {
    const perms = input.permissions ?? [];
    if (input.type !== 'secret' && perms.length > 0) {
      throw new CmsError('VALIDATION_FAILED', `Only secret keys carry permissions; a ${input.type} key is read-only`, [
        { path: 'permissions', message: 'only secret keys carry permissions' },
      ]);
    }
    const key = prefixes[input.type] + randomToken(24);
    const [row] = await ctx.db.insert(apiKeys).values({
      projectId: ctx.project.id,
      type: input.type,
      name: input.name ?? `${input.type} key`,
      keyHash: sha256Hex(key),
      keyPrefix: key.slice(0, prefixes[input.type].length + 4),
      permissions: perms,
      createdAt: ctx.clock.now(),
    }).returning();
    const view = toView(row!);
    // The whole key is shown here, once; only its hash is kept.
    return { id: view.id, type: view.type, name: view.name, key, permissions: view.permissions, createdAt: view.createdAt };
  },
});

export const listKeys = defineOperation({
  name: 'keys.list',
  input: z.strictObject({ includeRevoked: z.boolean().optional() }),
  access: { role: 'admin' },
  write: false,
  async run(ctx, input) {
    const rows = await ctx.db.select().from(apiKeys)
      .where(input.includeRevoked ? eq(apiKeys.projectId, ctx.project.id) : and(eq(apiKeys.projectId, ctx.project.id), isNull(apiKeys.revokedAt)))
      .orderBy(desc(apiKeys.createdAt));
    return rows.map(toView);
  },
});

export const revokeKey = defineOperation({
  name: 'keys.revoke',
  input: z.strictObject({ id: z.string().min(1) }),
  access: { role: 'admin' },
  write: true,
  async run(ctx, input) {
    // A key may be named by its id or by its whole value (what a user has at hand).
    const where = input.id.startsWith('svc_') || input.id.startsWith('preview_')
      ? eq(apiKeys.keyHash, sha256Hex(input.id))
      : z.uuid().safeParse(input.id).success ? eq(apiKeys.id, input.id) : undefined;
    if (!where) throw new CmsError('NOT_FOUND', `API key ${input.id} not found`);
    const [row] = await ctx.db.update(apiKeys).set({ revokedAt: ctx.clock.now() })
      .where(and(where, eq(apiKeys.projectId, ctx.project.id), isNull(apiKeys.revokedAt)))
      .returning();
    if (!row) throw new CmsError('NOT_FOUND', `API key ${input.id} not found or already revoked`);
    ctx.keysChanged();
    return toView(row);
  },
});

/** Looks a presented key up. Not an operation: it is how the doors learn who the actor is. */
export async function findKeyActor(db: Db, presented: string): Promise<Extract<Actor, { kind: 'key' }> | null> {
  const [row] = await db.select({
    id: apiKeys.id, projectId: apiKeys.projectId, type: apiKeys.type, permissions: apiKeys.permissions, revokedAt: apiKeys.revokedAt,
  }).from(apiKeys).where(eq(apiKeys.keyHash, sha256Hex(presented)));
  if (!row || row.revokedAt) return null;
  return { kind: 'key', keyId: row.id, projectId: row.projectId, type: storedKeyType(row.type), permissions: row.permissions.filter(isPermission) };
}

/** How fine a key's `lastUsedAt` is: a use within this long of the stored one is not written. */
export const keyUseResolutionMs = 60_000;

/**
 * Records that a key was used at `at`. Not an operation: the doors call it when a request presents
 * the key. One statement, which writes nothing while the stored time is under a minute old; a
 * revoked key keeps the time of its last use before the revocation.
 */
export async function recordKeyUse(db: Db, keyId: string, at: Date): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: at }).where(and(
    eq(apiKeys.id, keyId),
    isNull(apiKeys.revokedAt),
    or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(at.getTime() - keyUseResolutionMs))),
  ));
}

export const keyTypeOf = (presented: string): KeyType | null =>
  presented.startsWith('svc_pk_') ? 'public' : presented.startsWith('svc_sk_') ? 'secret' : presented.startsWith('preview_') ? 'preview' : null;
