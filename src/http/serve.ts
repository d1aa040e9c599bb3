import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { toNodeHandler } from 'h3/node';
import { keyTypeOf } from '../core/keys/operations.js';
import type { Cms } from '../runtime.js';
import { createApp, createAppShared, type AppOptions, type AppShared } from './app.js';
import { answerFromEntry, cacheKey } from './cache.js';

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
 * authentication, rate limit, cache key and answer as the route in `routes/content.ts` (the same
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
    return answerHit(shared, req, res, path, search, single).then(
      (answered) => (answered ? undefined : next(req, res)),
      () => next(req, res),
    );
  };
}

async function answerHit(shared: AppShared, req: IncomingMessage, res: ServerResponse, path: string, search: string, single: boolean): Promise<boolean> {
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
  const actor = await shared.authenticateKey(presented);
  if (!actor || actor.type === 'preview') return false;
  const entry = shared.cache.get(actor.projectId, cacheKey(path, query, actor.type));
  if (!entry) return false;
  let limits: Record<string, string>;
  try {
    limits = shared.takeRateLimit(actor.keyId);
  } catch {
    // Over the limit: h3 answers the 429 (the refused take counted nothing).
    return false;
  }
  const answer = answerFromEntry(entry, single, { ...shared.corsHeaders, ...limits }, header(h['if-none-match']), header(h['accept-encoding']));
  // Names in the order h3 sends them (a Headers object iterates sorted).
  const raw: string[] = [];
  for (const name of Object.keys(answer.headers).sort()) raw.push(name, answer.headers[name]!);
  res.writeHead(answer.status, '', raw);
  if (answer.body) res.end(answer.body);
  else res.end();
  return true;
}

const header = (value: string | string[] | undefined): string | null => (value === undefined ? null : Array.isArray(value) ? value.join(', ') : value);
