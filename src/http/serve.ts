import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { toNodeHandler } from 'h3/node';
import { keyTypeOf } from '../core/keys/operations.js';
import type { Cms } from '../runtime.js';
import type { KeyActor } from './auth.js';
import { createApp, createAppShared, type AppOptions, type AppShared } from './app.js';
import { answerFromEntry, cacheKey, matchesEtag, type CachedResponse } from './cache.js';

export interface ServeOptions extends AppOptions {
  port: number;
  host: string;
}

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close(): Promise<void>;
}

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** Serves the app through listhen, with a graceful close; cache hits take the fast path. */
export async function startServer(cms: Cms, options: ServeOptions): Promise<RunningServer> {
  const shared = options.shared ?? createAppShared(cms);
  const app = createApp(cms, { ...options, shared });
  const { listen } = await import('listhen');
  const listener = await listen(createFastPath(shared, toNodeHandler(app)), {
    port: options.port,
    hostname: options.host,
    showURL: false,
    open: false,
    clipboard: false,
    qr: false,
    public: options.host === '0.0.0.0' || options.host === '::',
    tunnel: false,
    isTest: true,
  } as never);
  const server = listener.server as Server;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  return {
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
    port,
    server,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive sockets would hold close() open; busy ones finish their request first.
        server.closeIdleConnections?.();
      });
    },
  };
}

/**
 * The four public reads, in the plain form h3 takes as it is: the single reads name a slug. Paths
 * with anything h3 would normalise first (dot segments, escapes) are left to h3.
 */
const publicReadPath = /^\/api\/v1\/(?:pages(\/[\w~-][\w.~-]*)?|collections\/[\w~-][\w.~-]*(\/[\w~-][\w.~-]*)?)$/;
/** Query strings URL parsing would rewrite (so h3's cache key would differ from the raw one). */
const searchNeedsNormalising = /[#"'<>\u0000-\u0020\u007f-\uffff]/;

/**
 * A cache hit of a public read answered by a plain Node handler in front of h3: the same key
 * authentication, rate limit, cache key and answer as the route in `routes/read-route.ts` (the same
 * objects, shared through `AppShared`), without building a Request, an event and a Response.
 * Anything else (a miss, a preview, a refused key, the limit reached) goes on to h3, which
 * answers it as always.
 */
export function createFastPath(shared: AppShared, next: NodeHandler): NodeHandler {
  return (req, res) => {
    if (req.method !== 'GET' || !shared.cache.enabled) return next(req, res);
    const target = req.url ?? '';
    const q = target.indexOf('?');
    const path = q === -1 ? target : target.slice(0, q);
    const m = publicReadPath.exec(path);
    if (!m) return next(req, res);
    const search = q === -1 ? '' : target.slice(q + 1);
    if (searchNeedsNormalising.test(search)) return next(req, res);
    const single = m[1] !== undefined || m[2] !== undefined;
    let answered: boolean | Promise<boolean>;
    try {
      answered = answerHit(shared, req, res, path, search, single);
    } catch {
      return next(req, res);
    }
    // Synchronous when the key's answer is at hand: no promise between request and response.
    if (answered === true) return undefined;
    if (answered === false) return next(req, res);
    return answered.then((done) => (done ? undefined : next(req, res)), () => next(req, res));
  };
}

function answerHit(shared: AppShared, req: IncomingMessage, res: ServerResponse, path: string, search: string, single: boolean): boolean | Promise<boolean> {
  const h = req.headers;
  // Previews are never cached; h3 answers them (and refuses bad preview keys).
  if (h['x-preview-key'] !== undefined) return false;
  const query = new URLSearchParams(search);
  if (query.has('preview')) return false;
  const headerKey = header(h['x-api-key']);
  const presented = headerKey ?? query.get('api_key');
  if (!presented) return false;
  const type = keyTypeOf(presented);
  if (type === null || type === 'preview' || (headerKey === null && type === 'secret')) return false;
  const actor = shared.authenticateKey(presented);
  if (actor instanceof Promise) return actor.then((known) => answerAs(shared, req, res, path, query, single, known));
  return answerAs(shared, req, res, path, query, single, actor);
}

function answerAs(shared: AppShared, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams, single: boolean, actor: KeyActor | null): boolean {
  if (!actor || actor.type === 'preview') return false;
  const h = req.headers;
  const entry = shared.cache.get(actor.projectId, cacheKey(path, query, actor.type));
  if (!entry) return false;
  let limits: Record<string, string>;
  try {
    limits = shared.takeRateLimit(actor.keyId);
  } catch {
    // Over the limit: h3 answers the 429 (the refused take counted nothing).
    return false;
  }
  const notModified = single && matchesEtag(header(h['if-none-match']), entry.etag);
  const answer = answerTemplate(shared, entry, notModified, header(h['accept-encoding']), limits);
  const raw = answer.raw.slice();
  for (const [index, name] of answer.slots) raw[index] = limits[name]!;
  res.writeHead(answer.status, '', raw);
  if (answer.body) res.end(answer.body);
  else res.end();
  return true;
}

/**
 * An answer as a raw header list in the order h3 sends them (a Headers object iterates sorted),
 * with the slots the request's own rate-limit values go in. Made by answerFromEntry itself, so it
 * is the h3 route's answer exactly, and kept with the cache entry per kind of answer (304 or not,
 * Accept-Encoding, which limit headers).
 */
interface AnswerTemplate {
  status: number;
  raw: string[];
  slots: Array<[number, string]>;
  body: Buffer | null;
}

const templatesOf = new WeakMap<CachedResponse, Map<string, AnswerTemplate>>();
const maxTemplatesPerEntry = 16;

function answerTemplate(shared: AppShared, entry: CachedResponse, notModified: boolean, acceptEncoding: string | null, limits: Record<string, string>): AnswerTemplate {
  const limitNames = Object.keys(limits);
  const key = `${notModified ? 304 : 200} ${limitNames.join(',')} ${acceptEncoding ?? ''}`;
  let templates = templatesOf.get(entry);
  const kept = templates?.get(key);
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
  if (!templates) { templates = new Map(); templatesOf.set(entry, templates); }
  if (templates.size < maxTemplatesPerEntry) templates.set(key, template);
  return template;
}

const header = (value: string | string[] | undefined): string | null => (value === undefined ? null : Array.isArray(value) ? value.join(', ') : value);
