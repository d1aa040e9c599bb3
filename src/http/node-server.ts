import { createServer, IncomingMessage, ServerResponse, STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { toNodeHandler } from 'h3/node';
import { CmsError } from '../core/errors.js';
import { keyTypeOf } from '../core/keys/operations.js';
import type { Cms } from '../runtime.js';
import { secretInQuery, type KeyActor } from './auth.js';
import { rateLimitSubject } from './rate-limit.js';
import { addRoute, createRouter, findRoute } from 'rou3';
import { appRoutes, createApp, createAppShared, type AppOptions } from './app.js';
import { answerFromEntry, cacheKey, type AnswerTemplate, type CachedResponse } from './cache.js';
import { matchesEtag } from './preconditions.js';
import type { AppShared, RouteDef } from './route.js';
import { noteFastAnswer, observeRequests } from './observe.js';

export interface ServeOptions extends AppOptions {
  /** 0 asks for any free port; any other port that is taken is an error. */
  port: number;
  host: string;
}

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  /** From now on /readyz answers 503 (load balancers stop sending requests); requests are still served. */
  drain(): void;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close(): Promise<void>;
}

/** How long an idle keep-alive connection stays open. */
const keepAliveMs = 65_000;

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * Serves the app on a plain node:http server: cache hits take the fast path, everything else goes
 * to h3. Every stage from socket to response is guarded, so no request can stop the process, and
 * a taken port is an error (never another port in its place).
 */
export async function startServer(cms: Cms, options: ServeOptions): Promise<RunningServer> {
  const { shared, handler } = createRequestHandler(cms, options);
  const logError = (message: string, e: unknown) => cms.log.error(message, { error: e instanceof Error ? e.stack ?? e.message : String(e) });
  // Node's own answer to a missing Host has no body: checkHost gives it the API's error shape.
  const state = { closing: false };
  const server = createServer({ ServerResponse: responseClass(state), requireHostHeader: false }, handler);
  server.on('clientError', answerClientError);
  server.on('connect', refuseConnect);
  // Idle keep-alive connections stay open 65 s (Node's default is 5 s), above the 60 s idle
  // timeout of common load balancers (AWS ALB's default) and above what a busy client's coarse
  // idle timers can miss: a client that reuses a connection just as the server closes it gets its
  // request reset (a 502 behind a balancer, ECONNRESET in fetch). The headers timeout stays above it.
  server.keepAliveTimeout = keepAliveMs;
  server.headersTimeout = keepAliveMs + 1_000;
  await listen(server, options.port, options.host);
  // Errors of the listening socket after start-up (accept failing for lack of file descriptors) are logged, never fatal.
  server.on('error', (e) => logError('server error', e));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${shownHost(options.host)}:${port}`,
    port,
    server,
    drain() {
      shared.lifecycle.draining = true;
    },
    async close() {
      shared.lifecycle.draining = true;
      state.closing = true;
      await new Promise<void>((resolve) => {
        // Idle keep-alive sockets would hold close() open; busy ones finish their request first
        // (an answer already under way when close() came ends idle, and is closed by the timer).
        const sweep = setInterval(() => server.closeIdleConnections(), 250);
        server.close(() => {
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}

/**
 * The whole request path of `cms serve` as one Node handler (fast path, h3, guards, request log),
 * for a server someone else listens with: `cms dev` hands it to listhen.
 */
export function createRequestHandler(cms: Cms, options: AppOptions): { shared: AppShared; handler: NodeHandler } {
  const shared = options.shared ?? createAppShared(cms);
  const app = createApp(cms, { ...options, shared });
  const logError = (message: string, e: unknown) => cms.log.error(message, { error: e instanceof Error ? e.stack ?? e.message : String(e) });
  return { shared, handler: observeRequests(cms, guardRequests(checkHost(headAsGet(afterOtherServersWrites(cms, createFastPath(shared, appRoutes(options), toNodeHandler(app))))), logError)) };
}

/**
 * A public read waits, while other servers share the database, until what this one keeps has
 * caught up with their writes that committed before the read came (`kept.barrier`, src/runtime.ts).
 */
function afterOtherServersWrites(cms: Cms, next: NodeHandler): NodeHandler {
  return (req, res) => {
    if (req.method !== 'GET') return next(req, res);
    const url = req.url ?? '';
    if (!url.startsWith('/api/v1/') || url.startsWith('/api/v1/admin/')) return next(req, res);
    const wait = cms.kept.barrier();
    if (!wait) return next(req, res);
    return wait.then(() => next(req, res), () => next(req, res));
  };
}

const shownHost = (host: string): string => {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return shown.includes(':') ? `[${shown}]` : shown;
};

/** Listens on exactly the port asked for; a port in use (or refused) is a clear error. */
function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (e: unknown) => reject(listenError(e, port, host));
    server.once('error', failed);
    try {
      server.listen(port, host, () => {
        server.off('error', failed);
        resolve();
      });
    } catch (e) {
      server.off('error', failed);
      reject(listenError(e, port, host));
    }
  });
}

/** The `code` of a Node system error (`EADDRINUSE`), if the value is one. */
const errorCode = (e: unknown): unknown => (e instanceof Error && 'code' in e ? e.code : undefined);

/** A failed listen in the words of `cms serve` (and `cms dev`): address in use, no permission, not an address here. */
export function listenError(e: unknown, port: number, host: string): Error {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const choose = 'choose another port with --port <n> (or PORT, or server.port in cms.config.json), or --port 0 for any free port';
  switch (errorCode(e)) {
    case 'EADDRINUSE':
      return new CmsError('CONFLICT', `Address in use: ${where} is already taken by another process. Stop that process, or ${choose}.`);
    case 'EACCES':
      return new CmsError('FORBIDDEN', `Permission denied to listen on ${where} (ports below 1024 need privileges): ${choose}.`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new CmsError('BAD_REQUEST', `Cannot listen on ${where}: ${host} is not an address of this machine. Use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface).`);
    default:
      return e instanceof Error ? e : new Error(String(e));
  }
}

/** The API's error shape, written straight to a Node response (when h3 never got the request). */
function answerError(res: ServerResponse, status: number, code: string, message: string): void {
  if (res.headersSent || res.writableEnded) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(status, STATUS_CODES[status] ?? '', {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

const isInvalidUrl = (e: unknown): boolean => errorCode(e) === 'ERR_INVALID_URL';

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && 'then' in value && typeof value.then === 'function';

/**
 * The outermost stage: whatever a handler throws, at once or later, the request still gets an
 * answer (400 for a URL that cannot be parsed, else a logged 500) and the process lives on.
 */
export function guardRequests(handler: NodeHandler, logError: (message: string, e: unknown) => void): NodeHandler {
  const fail = (res: ServerResponse, e: unknown) => {
    if (isInvalidUrl(e)) return answerError(res, 400, 'BAD_REQUEST', 'The request URL (with its Host header) is not a valid URL');
    logError('unhandled error while answering a request', e);
    answerError(res, 500, 'INTERNAL', 'Internal server error');
  };
  return (req, res) => {
    try {
      const out = handler(req, res);
      if (isThenable(out)) out.then(undefined, (e: unknown) => fail(res, e));
    } catch (e) {
      fail(res, e);
    }
    return undefined;
  };
}

/**
 * The request line and Host header, checked before anything else reads them: a request without a
 * Host (HTTP/1.1 requires one) or with one the URL parser refuses (`x:99999`) would make h3 fail
 * while it sets the request up, or later when a route reads the URL. Both are answered 400 here.
 * Hosts that parsed once are remembered, so the usual request pays one Set lookup.
 */
export function checkHost(next: NodeHandler): NodeHandler {
  const goodHosts = new Set<string>();
  return (req, res) => {
    const host = req.headers.host;
    if (host === undefined) {
      if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) return answerError(res, 400, 'BAD_REQUEST', 'HTTP/1.1 requests must carry a Host header');
    } else if (!goodHosts.has(host)) {
      if (host !== '' && !URL.canParse(`http://${host}/`)) return answerError(res, 400, 'BAD_REQUEST', 'The Host header is not a valid host[:port]');
      if (goodHosts.size < 256) goodHosts.add(host);
    }
    return next(req, res);
  };
}

/**
 * HEAD is answered as the GET of the same URL, without its body (HTTP: a server that answers GET
 * answers HEAD): the same status and headers, Content-Length and ETag included. Node decided when
 * the response was made that a HEAD request's body is not sent, so the routes, which know GET only,
 * run as for a GET.
 */
function headAsGet(next: NodeHandler): NodeHandler {
  return (req, res) => {
    if (req.method === 'HEAD') req.method = 'GET';
    return next(req, res);
  };
}

/** CONNECT asks for a tunnel (Node hands it to 'connect', not to the request handler). */
function refuseConnect(req: IncomingMessage, socket: Duplex): void {
  const body = JSON.stringify({ error: { code: 'BAD_REQUEST', message: 'This server is not a proxy: CONNECT is not supported' } });
  endSocket(socket, 405, body);
}

function endSocket(socket: Duplex, status: number, body: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
  // A peer that never closes its side does not keep the socket: give the answer a moment to leave.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** How long a connection refused with 413 keeps reading (and dropping) the body it is still sent. */
const lingerMs = 2_000;

/**
 * A 413 is answered before the body was read, with `Connection: close`. Closing the socket at once,
 * with the client's bytes still arriving, makes the kernel reset the connection, and a reset can
 * throw away the answer before the client read it (the client sees EPIPE or ECONNRESET instead of
 * its 413). Like nginx's lingering close, the connection ends its sending side after the answer,
 * goes on reading and dropping what the client still sends, and closes when the client does or
 * after `lingerMs`.
 */
function lingerAfterAnswer(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    socket.on('data', () => {});
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearTimeout(timer));
  };
}

/**
 * Node's response with three additions. Every answer carries its standard reason phrase
 * (`HTTP/1.1 404 Not Found`): srvx hands h3's empty `statusText` on to `writeHead` as '', which
 * Node would send as it is. Once the server is closing, every answer ends its connection, so
 * no keep-alive socket outlives the request it was answering. And a 413 sent before the body was
 * all read closes its connection lingering (`lingerAfterAnswer`).
 */
function responseClass(state: { closing: boolean }) {
  return class ServerAnswer extends ServerResponse {
    override writeHead(statusCode: number, ...rest: unknown[]): this {
      if (rest[0] === '') rest[0] = STATUS_CODES[statusCode] ?? 'Unknown';
      if (state.closing) this.shouldKeepAlive = false;
      if (statusCode === 413 && !this.req.complete && this.socket) lingerAfterAnswer(this.socket);
      // writeHead's overloads take (status, message?, headers?) or (status, headers?); the arguments
      // are passed on exactly as given, which no single overload describes.
      return (ServerResponse.prototype.writeHead as (this: ServerResponse, ...args: unknown[]) => this).call(this, statusCode, ...rest);
    }
  };
}

/**
 * Requests Node's HTTP parser refuses (bad bytes in a header, headers over the 16 KB limit, a
 * request that took too long) never reach a handler; they get the API's JSON error shape too, as
 * Node's own answer would, unless a response on that connection has already begun.
 */
function answerClientError(err: NodeJS.ErrnoException & { reason?: string }, socket: Duplex): void {
  // Node keeps the response under way on the socket as `_httpMessage` (not in its types).
  const inFlight = '_httpMessage' in socket && socket._httpMessage instanceof ServerResponse ? socket._httpMessage : null;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'BAD_REQUEST', 'The request headers are over the server\'s 16 KB limit; send fewer or smaller headers (cookies count too)']
    : err.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? [413, 'PAYLOAD_TOO_LARGE', 'The chunk extensions of the request body are too large']
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'BAD_REQUEST', 'The request took too long to arrive']
    : [400, 'BAD_REQUEST', `The request is not valid HTTP/1.1${err.reason ? `: ${err.reason}` : ''}`];
  endSocket(socket, status, JSON.stringify({ error: { code, message } }));
}

/**
 * A path in the plain form h3 takes as it is: segments of word characters, `~`, `-` and dots (not
 * leading, so no dot segments). Paths with anything h3 would normalise first (escapes, empty or dot
 * segments, a trailing slash) are left to h3.
 */
const plainPath = /^(?:\/[\w~-][\w.~-]*)+$/;
/** Query strings URL parsing would rewrite (so h3's cache key would differ from the raw one). */
const searchNeedsNormalising = /[#"'<>\u0000-\u0020\u007f-\uffff]/;

/**
 * The app's GET routes in rou3, the router h3 itself mounts them in, so a path finds here the very
 * route it finds in h3 (a static segment before a parameter). Only `cachedRead` routes take the
 * fast path; the others are here so that one of them, when h3 would prefer it, is never mistaken
 * for a public read.
 */
function readRouter(routes: RouteDef[]) {
  const router = createRouter<RouteDef>();
  for (const route of routes) if (route.method === 'GET') addRoute(router, 'GET', route.path, route);
  return (path: string): RouteDef | undefined => {
    const route = findRoute(router, 'GET', path)?.data;
    return route?.cachedRead ? route : undefined;
  };
}

/**
 * A cache hit of a public read answered by a plain Node handler in front of h3: the same route
 * table, key authentication, cache key, client address and answer as the route in
 * `routes/read-route.ts` (the same objects, shared through `AppShared`), without building a
 * Request, an event and a Response. A cache hit never counts against the rate limit: it carries
 * the limit's state as it stands. Anything else (a miss, a preview, a refused key) goes on to h3,
 * which answers it as always.
 */
export function createFastPath(shared: AppShared, routes: RouteDef[], next: NodeHandler): NodeHandler {
  const cachedReadOf = readRouter(routes);
  return (req, res) => {
    if (req.method !== 'GET' || !shared.cache.enabled) return next(req, res);
    const target = req.url ?? '';
    const q = target.indexOf('?');
    const path = q === -1 ? target : target.slice(0, q);
    if (!plainPath.test(path)) return next(req, res);
    const read = cachedReadOf(path);
    if (!read?.cachedRead) return next(req, res);
    const search = q === -1 ? '' : target.slice(q + 1);
    if (searchNeedsNormalising.test(search)) return next(req, res);
    let answered: boolean | Promise<boolean>;
    try {
      answered = answerHit(shared, req, res, path, search, read.cachedRead.single, read.path);
    } catch {
      return next(req, res);
    }
    // Synchronous when the key's answer is at hand: no promise between request and response.
    if (answered === true) return undefined;
    if (answered === false) return next(req, res);
    return answered.then((done) => (done ? undefined : next(req, res)), () => next(req, res));
  };
}

function answerHit(shared: AppShared, req: IncomingMessage, res: ServerResponse, path: string, search: string, single: boolean, route: string): boolean | Promise<boolean> {
  const h = req.headers;
  // Previews are never cached; h3 answers them (and refuses bad preview keys).
  if (h['x-preview-key'] !== undefined) return false;
  const query = new URLSearchParams(search);
  if (query.has('preview')) return false;
  const headerKey = header(h['x-api-key']);
  const presented = headerKey ?? query.get('api_key');
  if (!presented) return false;
  const type = keyTypeOf(presented);
  // A secret key in the query goes to h3, which refuses it.
  if (type === null || type === 'preview' || secretInQuery(query)) return false;
  const actor = shared.authenticateKey(presented);
  if (actor instanceof Promise) return actor.then((known) => answerAs(shared, req, res, path, query, single, known, route));
  return answerAs(shared, req, res, path, query, single, actor, route);
}

function answerAs(shared: AppShared, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams, single: boolean, actor: KeyActor | null, route: string): boolean {
  if (!actor || actor.type === 'preview') return false;
  const h = req.headers;
  const entry = shared.cache.get(actor.projectId, cacheKey(path, query, actor.type));
  if (!entry) return false;
  noteFastAnswer(req, route, actor);
  const address = shared.clientAddress(req.socket.remoteAddress, header(h['x-forwarded-for']));
  const limits = shared.rateLimit.peek(rateLimitSubject(actor, address));
  const notModified = single && matchesEtag(header(h['if-none-match']), entry.etag);
  const answer = answerTemplate(shared, entry, notModified, header(h['accept-encoding']), limits);
  const raw = answer.raw.slice();
  for (const [index, name] of answer.slots) raw[index] = limits[name]!;
  res.writeHead(answer.status, STATUS_CODES[answer.status] ?? '', raw);
  if (answer.body) res.end(answer.body);
  else res.end();
  return true;
}

const maxTemplatesPerEntry = 16;

/**
 * The answer as a raw header list in the order h3 sends them (a Headers object iterates sorted),
 * with the slots the request's own rate-limit values go in. Made by answerFromEntry itself, so it
 * is the h3 route's answer exactly, and kept in the cache entry per kind of answer (304 or not,
 * Accept-Encoding, which limit headers).
 */
function answerTemplate(shared: AppShared, entry: CachedResponse, notModified: boolean, acceptEncoding: string | null, limits: Record<string, string>): AnswerTemplate {
  const limitNames = Object.keys(limits);
  const key = `${notModified ? 304 : 200} ${limitNames.join(',')} ${acceptEncoding ?? ''}`;
  const kept = entry.answers?.get(key);
  if (kept) return kept;
  const marks = Object.fromEntries(limitNames.map((name) => [name, `\u0000${name}`]));
  const answer = answerFromEntry(entry, notModified, { ...shared.corsHeaders, ...marks }, notModified ? entry.etag : null, acceptEncoding);
  const raw: string[] = [];
  const slots: Array<[number, string]> = [];
  for (const name of Object.keys(answer.headers).sort()) {
    const value = answer.headers[name]!;
    if (limitNames.includes(name) && value === marks[name]) slots.push([raw.length + 1, name]);
    raw.push(name, value);
  }
  const template = { status: answer.status, raw, slots, body: answer.body };
  entry.answers ??= new Map();
  if (entry.answers.size < maxTemplatesPerEntry) entry.answers.set(key, template);
  return template;
}

const header = (value: string | string[] | undefined): string | null => (value === undefined ? null : Array.isArray(value) ? value.join(', ') : value);
