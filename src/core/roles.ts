export const roles = ['viewer', 'editor', 'developer', 'admin', 'owner'] as const;
export type Role = (typeof roles)[number];

export const permissions = ['content:write', 'media:write', 'ai:use'] as const;
export type Permission = (typeof permissions)[number];

export const keyTypes = ['public', 'secret', 'preview'] as const;
export type KeyType = (typeof keyTypes)[number];

export const roleAtLeast = (role: Role, needed: Role): boolean => roles.indexOf(role) >= roles.indexOf(needed);
