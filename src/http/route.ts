import type { H3Event } from 'h3';
import type { Actor } from '../core/actor.js';
import { CmsError } from '../core/errors.js';
import type { OperationName, OutputOf } from '../core/registry.js';
import type { Cms } from '../runtime.js';
import type { KeyActor, KeyCredentials } from './auth.js';
import type { ResponseCache } from './cache.js';
import { json } from './response.js';

/**
 * What a route is and what its handler gets: the route tables (routes/*.ts) and the app that
 * mounts them (app.ts) both import this module, and it imports neither.
 */

export type AuthKind = 'none' | 'key' | 'session';

export interface RequestContext {
  cms: Cms;
  event: H3Event;
  req: Request;
  url: URL;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: Headers;
  /** The parsed JSON body ({} when there is none); invalid JSON answers 400. */
  body(): Promise<unknown>;
  /** The body as text, read once. */
  rawBody(): Promise<string>;
  /** Set by the auth step of the route. */
  actor: Actor;
  project: string | undefined;
  keys: KeyCredentials;
  /** Runs an operation as this request's actor, in its project. */
  run<N extends OperationName>(name: N, input: unknown): Promise<OutputOf<N>>;
  /** Headers every answer to this request carries (rate limits, CORS), errors included. */
  responseHeaders: Record<string, string>;
  shared: AppShared;
}

/**
 * What lives as long as the server: the response cache, the rate limiter, the key authenticator
 * and the CORS headers of the public API. The fast path of `node-server.ts` answers cache hits
 * with the very same objects, so both doors agree on every key, limit and entry.
 */
export interface AppShared {
  cache: ResponseCache;
  takeRateLimit: (keyId: string) => Record<string, string>;
  /** The key authenticator; an answer it gave within the last second comes back at once (no promise). */
  authenticateKey: (presented: string) => KeyActor | null | Promise<KeyActor | null>;
  corsHeaders: Readonly<Record<string, string>>;
}

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  auth: AuthKind;
  /** A `key` route whose answer has no draft state: preview keys (header or query) are ignored. */
  ignorePreviewKeys?: boolean;
  handle(rc: RequestContext): Promise<Response | unknown>;
}

/** The shape most routes share: gather input, run one operation, wrap the answer in `{ data }`. */
export function opRoute<N extends OperationName>(
  method: RouteDef['method'],
  path: string,
  auth: AuthKind,
  op: N,
  input: (rc: RequestContext) => unknown,
  options: { status?: number; wrap?: (result: OutputOf<N>) => unknown } = {},
): RouteDef {
  return {
    method, path, auth,
    async handle(rc) {
      const result = await rc.run(op, await input(rc));
      return json(options.wrap ? options.wrap(result) : { data: result }, options.status ?? 200);
    },
  };
}

/** The JSON body when it is an object; anything else is refused with 400. */
export async function bodyObject(rc: RequestContext): Promise<Record<string, unknown>> {
  const body = await rc.body();
  if (!isPlainObject(body)) {
    throw new CmsError('VALIDATION_FAILED', 'The request body must be a JSON object', [{ path: '(body)', message: 'must be an object' }]);
  }
  return body;
}

/** The JSON body when it is an object, else `{}` (the operation's own validation speaks then). */
export async function bodyObjectOrEmpty(rc: RequestContext): Promise<Record<string, unknown>> {
  const body = await rc.body();
  return isPlainObject(body) ? body : {};
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON body with the path's id in it; a body that is not an object is left for validation to refuse. */
export async function bodyWithId(rc: RequestContext): Promise<unknown> {
  const body = await rc.body();
  return isPlainObject(body) ? { ...body, id: rc.params.id } : body;
}
