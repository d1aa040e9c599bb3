import type { H3Event } from 'h3';
import type { Actor } from '../core/actor.js';
import { CmsError } from '../core/errors.js';
import { parsePaging } from '../core/content/query.js';
import { paginationOf } from '../core/media/schemas.js';
import type { OperationName, OutputOf } from '../core/registry.js';
import type { Cms } from '../runtime.js';
import type { KeyActor, KeyCredentials } from './auth.js';
import type { ResponseCache } from './cache.js';
import type { RateLimiter } from './rate-limit.js';
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
  /** This request's place in its key's rate limit (no-ops without a key or a limit). */
  rateLimit: RequestRateLimit;
  shared: AppShared;
}

/**
 * Counting one request against the rate limit, done by the app for every `key` route unless the
 * route counts for itself (`countsOwnRequests`). Each call puts the RateLimit-* headers into the
 * request's response headers.
 */
export interface RequestRateLimit {
  /** Counts the request, or throws RATE_LIMITED (429 with Retry-After) over the limit. */
  count(): void;
  /** The state as it stands, counting nothing (an answer from the response cache). */
  show(): void;
  /** Gives back what count() took (an answer that does not count: a 304). */
  giveBack(): void;
}

/**
 * What lives as long as the server: the response cache, the rate limiter, the key authenticator
 * and the CORS headers of the public API. The fast path of `node-server.ts` answers cache hits
 * with the very same objects, so both doors agree on every key, limit and entry.
 */
export interface AppShared {
  cache: ResponseCache;
  rateLimit: RateLimiter;
  /** The client's address the rate limit counts by, from the socket's and X-Forwarded-For (the trusted-proxy setting). */
  clientAddress: (socketAddress: string | undefined, forwardedFor: string | null) => string | null;
  /** The key authenticator; a key it looked up lately is answered at once (no promise). */
  authenticateKey: (presented: string) => KeyActor | null | Promise<KeyActor | null>;
  corsHeaders: Readonly<Record<string, string>>;
  /** `draining` from the moment a stopping server should get no new requests: /readyz answers 503. */
  lifecycle: { draining: boolean };
}

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  auth: AuthKind;
  /** A `key` route whose answer has no draft state: preview keys (header or query) are ignored. */
  ignorePreviewKeys?: boolean;
  /**
   * The handler counts the request against the rate limit itself (`rc.rateLimit`), instead of
   * the app before it: public reads count neither answers from the response cache nor 304s.
   */
  countsOwnRequests?: boolean;
  /**
   * A public read answered from the response cache (`routes/read-route.ts`); `single` reads answer
   * If-None-Match with 304. The fast path of `node-server.ts` finds cache hits through these routes.
   */
  cachedRead?: { single: boolean };
  /**
   * The operation the route runs, for its OpenAPI description (openapi.ts): `status` is its success
   * status (200 when not given), `body` names the input
   * member the JSON body fills when it is not the whole input, and `bodySchema` describes a body the
   * operation checks past its input schema (a type's definition), by a named JSON Schema.
   */
  op?: { name: OperationName; status?: number; body?: string; bodySchema?: NamedSchema };
  /**
   * For the OpenAPI description of a route without an operation: its success status, a
   * multipart form body (its file fields), and whether it needs a session it reads itself.
   */
  doc?: { status?: number; form?: { files: string; many?: true }; session?: true; conditional?: true; paged?: true };
  handle(rc: RequestContext): Promise<Response | unknown>;
}

/** A JSON Schema made from a zod schema, named for the OpenAPI document's components. */
export interface NamedSchema { name: string; schema: () => Record<string, unknown> }

/** The shape most routes share: gather input, run one operation, wrap the answer in `{ data }`. */
export function opRoute<N extends OperationName>(
  method: RouteDef['method'],
  path: string,
  auth: AuthKind,
  op: N,
  input: (rc: RequestContext) => unknown,
  options: { status?: number; wrap?: (result: OutputOf<N>) => unknown; body?: string; bodySchema?: NamedSchema } = {},
): RouteDef {
  return {
    method, path, auth,
    op: { name: op, status: options.status ?? 200, ...(options.body ? { body: options.body } : {}), ...(options.bodySchema ? { bodySchema: options.bodySchema } : {}) },
    async handle(rc) {
      const result = await rc.run(op, await input(rc));
      return json(options.wrap ? options.wrap(result) : { data: result }, options.status ?? 200);
    },
  };
}

/**
 * A registry's list (webhooks, keys, members, types, migrations, folders) answered as every list
 * is: `{ data, pagination }`, with `page` and `limit` (1–100, default 20) checked as on the content
 * lists. The operation reads the whole registry, some tens of rows; the page is cut here, so the
 * CLI and the Local API still get every row from the same operation.
 */
export function pagedOpRoute<N extends OperationName>(path: string, auth: AuthKind, op: N, input: (rc: RequestContext) => unknown): RouteDef {
  return {
    method: 'GET', path, auth,
    op: { name: op, status: 200 },
    doc: { paged: true },
    async handle(rc) {
      const { page, limit } = parsePaging([...rc.query]);
      const result: unknown = await rc.run(op, await input(rc));
      const all = Array.isArray(result) ? result : [result];
      return json({
        data: all.slice((page - 1) * limit, page * limit),
        pagination: paginationOf(all.length, page, limit),
      });
    },
  };
}

/** The JSON body when it is an object (an empty body is `{}`); anything else is refused with 400 VALIDATION_FAILED. */
export async function bodyObject(rc: RequestContext): Promise<Record<string, unknown>> {
  const body = await rc.body();
  if (!isPlainObject(body)) {
    throw new CmsError('VALIDATION_FAILED', 'The request body must be a JSON object', [{ path: '(body)', message: 'must be an object' }]);
  }
  return body;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON body with the path's id in it; a body that is not an object is left for validation to refuse. */
export async function bodyWithId(rc: RequestContext): Promise<unknown> {
  const body = await rc.body();
  return isPlainObject(body) ? { ...body, id: rc.params.id } : body;
}
