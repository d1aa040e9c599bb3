import type { z } from 'zod';
import { aiOperations } from './ai/index.js';
import { authOperations } from './auth/index.js';
import { blogOperations } from './blog/index.js';
import { contentOperations } from './content/index.js';
import { dbStatus } from './db/status.js';
import { mediaOperations } from './media/index.js';
import { migrationOperations } from './migrations/index.js';
import { webhookOperations } from './webhooks/index.js';
import { createKey, listKeys, revokeKey } from './keys/operations.js';
import { localeOperations } from './locales/operations.js';
import { createProject, listProjects } from './projects/operations.js';
import { getSettings } from './projects/settings.js';
import { exportProject, importProject } from './projects/archive.js';
import { createType, deleteType, diffSchema, getType, listSchema, listTypes, pullSchema, pushSchema, updateType } from './types/operations.js';
import { schemaJsonSchema } from './types/json-schema.js';
import { schemaTypescript } from './types/typescript.js';
import { addMember, createUser, listMembers, memberDirectory, listUsers, removeMember, updateMember } from './users/operations.js';

/**
 * Every operation, by name. The HTTP routes and the CLI commands both reach operations through
 * this table, and the parity test walks it.
 */
export const operations = {
  'db.status': dbStatus,
  'projects.list': listProjects,
  'projects.create': createProject,
  'settings.get': getSettings,
  'project.export': exportProject,
  'project.import': importProject,
  'keys.create': createKey,
  'keys.list': listKeys,
  'keys.revoke': revokeKey,
  'users.create': createUser,
  'users.list': listUsers,
  'members.list': listMembers,
  'members.directory': memberDirectory,
  'members.add': addMember,
  'members.update': updateMember,
  'members.remove': removeMember,
  'schema.push': pushSchema,
  'schema.pull': pullSchema,
  'schema.diff': diffSchema,
  'schema.list': listSchema,
  'schema.typescript': schemaTypescript,
  'schema.jsonSchema': schemaJsonSchema,
  'types.list': listTypes,
  'types.get': getType,
  'types.create': createType,
  'types.update': updateType,
  'types.delete': deleteType,
  ...localeOperations,
  ...authOperations,
  ...contentOperations,
  ...mediaOperations,
  ...blogOperations,
  ...webhookOperations,
  ...migrationOperations,
  ...aiOperations,
} as const;

export type Operations = typeof operations;
export type OperationName = keyof Operations;
/** What an operation accepts (before its schema's defaults and transforms). */
export type InputOf<N extends OperationName> = z.input<Operations[N]['input']>;
/** What an operation answers. */
export type OutputOf<N extends OperationName> = Awaited<ReturnType<Operations[N]['run']>>;

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(operations, name);
}

/** The operation of a name, typed as itself. */
export function operationOf<N extends OperationName>(name: N): Operations[N] {
  return operations[name];
}
