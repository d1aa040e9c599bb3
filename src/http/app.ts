import { timingSafeEqual } from 'node:crypto';
import { getRequestIP, H3, type H3Event } from 'h3';
import { CmsError } from '../core/errors.js';
import { isOperationName } from '../core/registry.js';
import { jsonInputIssues } from '../lib/json-input.js';
import type { Cms } from '../runtime.js';
import { checkCsrf, createKeyAuthenticator, readKeyCredentials, readSessionActor } from './auth.js';
import { createResponseCache } from './cache.js';
import { toErrorResponse } from './errors.js';
import { rateLimitAddress } from './client-address.js';
import { createRateLimiter, rateLimitSubject, type RateLimiter, type RateLimitSubject } from './rate-limit.js';
import { json } from './response.js';
import { isPlainObject, type AppShared, type RequestContext, type RequestRateLimit, type RouteDef } from './route.js';
import { serveAdmin } from './admin-static.js';
import { serveApiDocs } from './api-docs.js';
import { openApiRoute } from './openapi.js';
import { adminRoutes } from './routes/admin.js';
import { aiRoutes } from './routes/ai.js';
import { authRoutes } from './routes/auth.js';
import { contentAdminRoutes } from './routes/content-admin.js';
import { blogRoutes } from './routes/blog.js';
import { contentRoutes } from './routes/content.js';
import { mediaRoutes } from './routes/media.js';
import { migrationRoutes } from './routes/migrations.js';
import { operatingRoutes } from './routes/operating.js';
import { createMetrics } from '../metrics.js';
import { noteCaller, noteRoute } from './observe.js';
import { webhookRoutes } from './routes/webhooks.js';

export function createAppShared(cms: Cms): AppShared {
  // The engine's metrics registry, made by the first server of the engine (docs/operating.md).
  cms.metrics ??= createMetrics(cms.handle);
  return {
    cache: createResponseCache(cms, { enabled: cms.config.cache }),
    rateLimit: createRateLimiter(cms.config.rateLimit),
    clientAddress: (socketAddress, forwardedFor) => rateLimitAddress(cms.config.trustProxy, socketAddress, forwardedFor),
    authenticateKey: createKeyAuthenticator(cms),
    corsHeaders: {
      'access-control-allow-origin': cms.config.corsOrigin,
      'access-control-expose-headers': 'ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Idempotent-Replayed',
    },
    lifecycle: { draining: false },
  };
}

export interface AppOptions {
  /** The token `cms serve` hands to CLI commands run while it holds the data folder. */
  cliToken?: string;
  /** Extra routes (tests, later features). */
  routes?: RouteDef[];
  /** The cache, limiter and authenticator to use (the server shares them with its fast path). */
  shared?: AppShared;
  /** The built admin web app served at /admin (default: dist/admin of this package). */
  adminDir?: string;
}

const maxJsonBody = 16 * 1024 * 1024;

/**
 * The one route table: the app mounts it, and the fast path of `node-server.ts` recognises cache
 * hits through the same definitions (its `cachedRead` routes, matched as h3 matches them).
 */
export function appRoutes(options: Pick<AppOptions, 'cliToken' | 'routes'> = {}): RouteDef[] {
  const routes: RouteDef[] = [
    { method: 'GET', path: '/api/v1/health', auth: 'none', handle: async () => json({ status: 'ok' }) },
    ...cliBridgeRoutes(options.cliToken),
    ...contentRoutes,
    ...mediaRoutes,
    ...blogRoutes,
    ...authRoutes,
    ...adminRoutes,
    ...contentAdminRoutes,
    ...webhookRoutes,
    ...migrationRoutes,
    ...aiRoutes,
    ...operatingRoutes(),
    ...(options.routes ?? []),
  ];
  // The OpenAPI document describes this table, less the CLI's private bridge (docs/openapi.md).
  routes.push(openApiRoute(() => routes.filter((r) => !r.path.startsWith('/api/v1/_cli/'))));
  return routes;
}

export function createApp(cms: Cms, options: AppOptions = {}): H3 {
  const shared = options.shared ?? createAppShared(cms);
  const { corsHeaders } = shared;
  const logError = (e: unknown) => cms.log.error('unhandled error', { error: e instanceof Error ? e.stack ?? e.message : String(e) });
  const app = new H3({
    onError(error, event) {
      // A path whose percent-encoding is not valid UTF-8 (`/api/v1/pages/%zz`) names nothing that
      // can exist: 404, as any other slug that is not there (h3 answers 400 without a code).
      if (error.status === 400 && !decodablePath(event.url.pathname)) {
        return json({ error: { code: 'NOT_FOUND', message: 'Nothing is at this path: its percent-encoding is not valid UTF-8' } }, 404);
      }
      // h3's own errors (malformed URL, bad method) keep their status; ours never reach here.
      const status = error.status ?? 500;
      if (status >= 500) logError(error.cause ?? error);
      return json({ error: { code: status >= 500 ? 'INTERNAL' : 'BAD_REQUEST', message: status >= 500 ? 'Internal server error' : error.message } }, status);
    },
  });

  const routes = appRoutes(options);

  for (const route of routes) {
    // Browsers may read the public API from any origin (configurable); admin routes use cookies.
    // The CORS headers are one fixed set (h3's handleCors would echo the Origin and add Vary),
    // so the fast path of node-server.ts can send the very same bytes without a request at hand.
    const cors = route.auth === 'key' || route.path === '/api/v1/health';
    app.on(route.method, route.path, async (event) => {
      const extra: Record<string, string> = cors ? { ...corsHeaders } : {};
      noteRoute(event, route.path);
      try {
        const rc = await buildContext(cms, event, route, shared, extra);
        noteCaller(event, rc.actor, rc.project);
        const out = await route.handle(rc);
        const res = out instanceof Response ? out : json(out);
        if (res.status === 304) {
          // A 304 never counts against the rate limit: the headers show the budget without it.
          rc.rateLimit.giveBack();
          for (const name of rateLimitHeaderNames) if (extra[name]) res.headers.set(name, extra[name]);
        }
        for (const [k, v] of Object.entries(extra)) if (!res.headers.has(k)) res.headers.set(k, v);
        return res;
      } catch (e) {
        const { status, body } = toErrorResponse(e, logError);
        // A body cut off at the limit is left unread: the connection ends after this answer.
        if (status === 413) extra.connection = 'close';
        if (e instanceof CmsError && e.code === 'RATE_LIMITED') {
          const { retryAfter, headers } = rateLimitAnswer(e.details);
          if (retryAfter) extra['retry-after'] = String(retryAfter);
          Object.assign(extra, headers);
          delete body.error.details;
          if (retryAfter) body.error.details = { retryAfter };
        }
        return json(body, status, extra);
      }
    });
  }

  app.on('OPTIONS', '/api/v1/**', (event) => {
    noteRoute(event, '/api/v1/**');
    if (event.url.pathname.startsWith('/api/v1/admin')) return new Response(null, { status: 204 });
    return new Response(null, {
      status: 204,
      headers: {
        ...corsHeaders,
        'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
        'access-control-allow-headers': 'Content-Type, X-API-Key, X-Preview-Key, Idempotency-Key, If-Match, If-None-Match',
        'access-control-max-age': '86400',
      },
    });
  });
  // The admin web app: static files, never through the route table (no session, no project).
  const admin = (event: H3Event) => {
    noteRoute(event, '/admin/**');
    return serveAdmin(event.url.pathname, options.adminDir, event.req.method === 'HEAD');
  };
  app.get('/admin', admin);
  app.get('/admin/**', admin);
  app.on('HEAD', '/admin', admin);
  app.on('HEAD', '/admin/**', admin);
  // The API reference (docs/openapi.md): a page and two scripts, outside the route table like /admin.
  const docs = async (event: H3Event) => {
    noteRoute(event, '/api/docs/**');
    return (await serveApiDocs(event.url.pathname))
      ?? json({ error: { code: 'NOT_FOUND', message: 'No such route; the API lives under /api/v1/' } }, 404);
  };
  app.get('/api/docs', docs);
  app.get('/api/docs/**', docs);
  app.all('/**', () => json({ error: { code: 'NOT_FOUND', message: 'No such route; the API lives under /api/v1/' } }, 404));
  return app;
}

async function buildContext(
  cms: Cms,
  event: H3Event,
  route: RouteDef,
  shared: AppShared,
  responseHeaders: Record<string, string>,
): Promise<RequestContext> {
  const req = event.req;
  const url = event.url;
  const headers = req.headers;
  let bodyPromise: Promise<unknown> | null = null;
  let rawPromise: Promise<string> | null = null;
  const rc: RequestContext = {
    cms, event, req, url, headers,
    params: decodeParams(event.context.params ?? {}),
    query: url.searchParams,
    rawBody: () => (rawPromise ??= readRawBody(req)),
    body: () => (bodyPromise ??= rc.rawBody().then(parseJsonBody)),
    actor: { kind: 'anonymous' },
    project: undefined,
    keys: { apiKey: null, preview: null },
    run: (name, input) => cms.runRequest(name, input, { actor: rc.actor, project: rc.project }),
    responseHeaders,
    rateLimit: notLimited,
    shared,
  };
  if (route.auth === 'key') {
    rc.keys = await readKeyCredentials(async (presented) => shared.authenticateKey(presented), headers, url.searchParams, { ignorePreview: route.ignorePreviewKeys === true });
    // A valid preview key reads drafts; an API key beside it was checked to be of the same project.
    rc.actor = rc.keys.preview ?? rc.keys.apiKey ?? { kind: 'anonymous' };
    const limited = rc.keys.apiKey ?? rc.keys.preview;
    if (limited) {
      const address = shared.clientAddress(getRequestIP(event), headers.get('x-forwarded-for'));
      rc.rateLimit = requestRateLimit(shared.rateLimit, rateLimitSubject(limited, address), responseHeaders);
      if (!route.countsOwnRequests) rc.rateLimit.count();
    }
  } else if (route.auth === 'session') {
    if (req.method !== 'GET' && req.method !== 'HEAD') checkCsrf(cms, req);
    const s = await readSessionActor(cms, headers);
    rc.actor = s.actor;
    rc.project = s.project;
  }
  return rc;
}

const rateLimitHeaderNames = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

const notLimited: RequestRateLimit = { count() {}, show() {}, giveBack() {} };

function requestRateLimit(limiter: RateLimiter, subject: RateLimitSubject, responseHeaders: Record<string, string>): RequestRateLimit {
  let taken: ReturnType<RateLimiter['take']> | null = null;
  return {
    count() {
      taken = limiter.take(subject);
      Object.assign(responseHeaders, taken.headers);
    },
    show() {
      Object.assign(responseHeaders, limiter.peek(subject));
    },
    giveBack() {
      if (!taken) return;
      Object.assign(responseHeaders, taken.giveBack());
      taken = null;
    },
  };
}

/**
 * A refusal for too many requests names its wait (`retryAfter`, seconds) and, from the key's rate
 * limiter, the RateLimit-* headers in its details: both become headers, only the wait stays in the body.
 */
function rateLimitAnswer(details: unknown): { retryAfter: number | undefined; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  if (!isPlainObject(details)) return { retryAfter: undefined, headers };
  if (isPlainObject(details.headers)) {
    for (const [name, value] of Object.entries(details.headers)) if (typeof value === 'string') headers[name] = value;
  }
  return { retryAfter: typeof details.retryAfter === 'number' ? details.retryAfter : undefined, headers };
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    try { out[k] = decodeURIComponent(v); } catch { out[k] = v; }
  }
  return out;
}

/**
 * The one reader of JSON bodies (every JSON route reads through `rc.body()`/`rc.rawBody()`): bytes
 * are counted as they arrive, with or without a Content-Length, and reading stops at the limit, so
 * a huge or endless chunked body never sits in memory. The rest is left unread; the 413 answer
 * closes the connection. (h3's assertBodySize does not do here: past the limit it cancels the
 * body stream, which on Node destroys the socket before the 413 can be sent.)
 */
async function readRawBody(req: Request): Promise<string> {
  const tooLarge = () => new CmsError('PAYLOAD_TOO_LARGE', `The request body is over ${maxJsonBody} bytes`);
  if (Number(req.headers.get('content-length') ?? '0') > maxJsonBody) throw tooLarge();
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxJsonBody) {
      reader.releaseLock();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function parseJsonBody(text: string): unknown {
  if (!text.trim()) return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new CmsError('VALIDATION_FAILED', 'The request body is not valid JSON', [{ path: '(body)', message: 'invalid JSON' }]);
  }
  const issues = jsonInputIssues(text, body);
  if (issues.length > 0) throw new CmsError('VALIDATION_FAILED', 'The request body holds what no write can take', issues);
  return body;
}

/**
 * CLI commands run while `cms serve` holds an embedded database come in here: the server runs
 * the same operation for them, as the terminal, after checking the token it wrote in the data
 * folder (readable only by the user who started it).
 */
function cliBridgeRoutes(token: string | undefined): RouteDef[] {
  if (!token) return [];
  const expected = Buffer.from(`Bearer ${token}`);
  return [{
    method: 'POST',
    path: '/api/v1/_cli/run',
    auth: 'none',
    async handle(rc) {
      const given = Buffer.from(rc.headers.get('authorization') ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new CmsError('UNAUTHORIZED', 'Invalid CLI token');
      }
      const body = await rc.body();
      if (!isPlainObject(body) || typeof body.op !== 'string') throw new CmsError('VALIDATION_FAILED', 'op is required');
      if (!isOperationName(body.op)) throw new CmsError('NOT_FOUND', `Unknown operation ${body.op}`);
      const result = await rc.cms.runRequest(body.op, body.input, {
        actor: { kind: 'terminal' },
        project: typeof body.project === 'string' ? body.project : undefined,
      });
      return json({ data: result ?? null });
    },
  }];
}

function decodablePath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}
