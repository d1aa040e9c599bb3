export const roles = ['viewer', 'editor', 'developer', 'admin', 'owner'] as const;
export type Role = (typeof roles)[number];

export const permissions = ['content:write', 'media:write', 'ai:use'] as const;
export type Permission = (typeof permissions)[number];

export const keyTypes = ['public', 'secret', 'preview'] as const;
export type KeyType = (typeof keyTypes)[number];

/** Type guards for the words stored in text columns (a member's role, a key's type and permissions). */
export const isRole = (value: string): value is Role => roles.some((r) => r === value);
export const isPermission = (value: string): value is Permission => permissions.some((p) => p === value);
export const isKeyType = (value: string): value is KeyType => keyTypes.some((k) => k === value);

/**
 * A role or key type read back from its text column. Only the operations write those columns, from
 * these lists, so another word means the database was changed by hand: an internal error, not a guess.
 */
export function storedRole(value: string): Role {
  if (isRole(value)) return value;
  throw new Error(`Stored membership role "${value}" is not one of ${roles.join(', ')}`);
}
export function storedKeyType(value: string): KeyType {
  if (isKeyType(value)) return value;
  throw new Error(`Stored API key type "${value}" is not one of ${keyTypes.join(', ')}`);
}

export const roleAtLeast = (role: Role, needed: Role): boolean => roles.indexOf(role) >= roles.indexOf(needed);
