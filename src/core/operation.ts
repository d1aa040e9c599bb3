import type { z } from 'zod';
import type { Actor } from './actor.js';
import type { Ctx } from './context.js';
import { CmsError, type ErrorCode, type Issue } from './errors.js';
import { roleAtLeast, type Permission, type Role } from './roles.js';

/**
 * Who may run an operation.
 * - role: the least member role (null: members may not run it at all).
 * - key: what an API key needs: 'read' lets any public or secret key in, a permission needs a
 *   secret key holding it, undefined keeps keys out.
 * - preview: preview keys may run it (public reads only).
 * - anonymous: callers with no credentials may run it.
 * The terminal and the server's own jobs may run everything.
 */
export interface Access {
  role: Role | null;
  key?: 'read' | Permission;
  preview?: boolean;
  anonymous?: boolean;
}

export interface Operation<S extends z.ZodType = z.ZodType, O = unknown> {
  name: string;
  input: S;
  access: Access;
  /** Writes run in one transaction; reads do not open one. */
  write: boolean;
  /**
   * A write whose every effect is in its transaction (no file written, no network call; hooks
   * after the commit aside): a request retried under an Idempotency-Key may run it again and
   * roll back. Its door then looks for the stored answer only when the run fails (the key taken,
   * or the retried write refused), not in a round trip before every run.
   */
  transactional?: true;
  /** Operations on no project (users, projects) say so; every other one runs in a project. */
  global?: boolean;
  /** The code for input that does not parse (queries answer INVALID_QUERY). */
  inputError?: ErrorCode;
  run(ctx: Ctx, input: z.output<S>): Promise<O>;
}

export function defineOperation<S extends z.ZodType, O>(op: Operation<S, O>): Operation<S, O> {
  return op;
}

export type AnyOperation = Operation<z.ZodType, unknown>;

/** zod's issue paths in the JSON-path form the contract's errors use: `fields[2].name`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(root)';
}

export function parseInput<S extends z.ZodType>(op: Operation<S, unknown>, input: unknown): z.output<S> {
  refuseNul(op, input);
  const parsed = op.input.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issues: Issue[] = parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
  const code = op.inputError ?? 'VALIDATION_FAILED';
  const message = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  if (code === 'INVALID_QUERY') {
    const first = issues[0];
    throw new CmsError(code, `Invalid query parameter ${first?.path ?? ''}: ${first?.message ?? 'invalid'}`, {
      parameter: first?.path, reason: first?.message, issues,
    });
  }
  throw new CmsError(code, `Invalid input: ${message}`, issues);
}

const nulMessage = 'must not contain the NUL character (\\u0000)';

/**
 * PostgreSQL refuses the NUL character in text and jsonb, so a string (or object key) carrying one
 * is refused here, for every operation and door, before it can reach the database. Walked without
 * recursion (a body may nest deeply) and only through plain objects and arrays (not file bytes).
 */
function refuseNul(op: AnyOperation, input: unknown): void {
  interface Step { key: PropertyKey; up: Step | null }
  const stack: Array<[unknown, Step | null]> = [[input, null]];
  let found: Step | null | undefined;
  while (stack.length > 0 && found === undefined) {
    const [value, at] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) found = at;
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push([value[i], { key: i, up: at }]);
    } else if (value !== null && typeof value === 'object' && isPlainObject(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (k.includes('\u0000')) { found = { key: k, up: at }; break; }
        stack.push([v, { key: k, up: at }]);
      }
    }
  }
  if (found === undefined) return;
  const path: PropertyKey[] = [];
  for (let s = found; s; s = s.up) path.unshift(s.key);
  // Public reads take the query string as [name, value] pairs: a bad query parameter, named.
  const pairs = typeof input === 'object' && input !== null && 'query' in input ? input.query : undefined;
  const pair: unknown = path[0] === 'query' && typeof path[1] === 'number' && Array.isArray(pairs) ? pairs[path[1]] : undefined;
  const code = Array.isArray(pair) ? 'INVALID_QUERY' : op.inputError ?? 'VALIDATION_FAILED';
  if (code === 'INVALID_QUERY') {
    // A parameter is named as it is in the URL (`search`), not by its place in the input (`query.search`).
    const parameter = Array.isArray(pair) && typeof pair[0] === 'string' ? pair[0]
      : path[0] === 'query' && typeof path[1] === 'string' ? path[1] : formatPath(path);
    throw new CmsError(code, `Invalid query parameter ${parameter}: ${nulMessage}`, { parameter, reason: nulMessage });
  }
  const issues: Issue[] = [{ path: formatPath(path), message: nulMessage }];
  throw new CmsError(code, `Invalid input: ${issues[0]!.path}: ${nulMessage}`, issues);
}

const isPlainObject = (value: object): boolean => {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** Access is checked here, once, for every door. */
export function checkAccess(op: AnyOperation, actor: Actor, projectId: string | null): void {
  const { access } = op;
  switch (actor.kind) {
    case 'terminal':
    case 'system':
      return;
    case 'anonymous':
      if (access.anonymous) return;
      throw new CmsError('UNAUTHORIZED', 'API key required via the X-API-Key header or the api_key query parameter');
    case 'user':
      if (access.role === null) {
        throw new CmsError('FORBIDDEN', `${op.name} is not available to signed-in members`);
      }
      if (!actor.role) throw new CmsError('FORBIDDEN', 'You are not a member of this project');
      if (!roleAtLeast(actor.role, access.role)) {
        throw new CmsError('FORBIDDEN', `This needs the ${access.role} role or higher; yours is ${actor.role}`);
      }
      return;
    case 'key': {
      if (projectId && actor.projectId !== projectId) throw new CmsError('FORBIDDEN', 'This key belongs to another project');
      if (actor.type === 'preview') {
        if (access.preview) return;
        throw new CmsError('FORBIDDEN', 'Preview keys can only read content');
      }
      if (access.key === 'read') return;
      if (!access.key) throw new CmsError('FORBIDDEN', `API keys cannot run ${op.name}; sign in as a member`);
      if (actor.type === 'public') throw new CmsError('FORBIDDEN', 'Public keys are read-only; use a secret key');
      if (!actor.permissions.includes(access.key)) {
        throw new CmsError('FORBIDDEN', `This secret key lacks the ${access.key} permission`);
      }
      return;
    }
  }
}
