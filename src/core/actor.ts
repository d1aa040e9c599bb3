import type { KeyType, Permission, Role } from './roles.js';

/**
 * Who is calling. Always explicit: a missing actor never means "allowed".
 * - terminal: the person at the keyboard of this machine (the CLI), who owns the data folder.
 * - system: the server's own jobs (scheduler, dispatcher, importer).
 * - user: a signed-in member, with the role of the project the request names.
 * - key: an API key; preview keys are keys of type `preview`.
 * - anonymous: nothing presented.
 */
export type Actor =
  | { kind: 'terminal' }
  | { kind: 'system'; job: string }
  | { kind: 'user'; userId: string; email: string; role: Role | null }
  | { kind: 'key'; keyId: string; projectId: string; type: KeyType; permissions: Permission[] }
  | { kind: 'anonymous' };

export const actorLabel = (actor: Actor): string => {
  switch (actor.kind) {
    case 'terminal': return 'terminal';
    case 'system': return `system:${actor.job}`;
    case 'user': return `user:${actor.userId}`;
    case 'key': return `key:${actor.keyId}`;
    case 'anonymous': return 'anonymous';
  }
};

const actorKinds: ReadonlySet<string> = new Set(['terminal', 'system', 'user', 'key', 'anonymous']);

/**
 * Whether a value given as the actor names one of the kinds (the local API's callers may write
 * plain JavaScript: a missing actor is told, not a TypeError deep inside).
 */
export function isActor(value: unknown): value is Actor {
  return typeof value === 'object' && value !== null && 'kind' in value && typeof value.kind === 'string' && actorKinds.has(value.kind);
}
