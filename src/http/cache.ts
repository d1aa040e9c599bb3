import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Cms } from '../runtime.js';
import { matchesEtag } from './preconditions.js';

export interface CachedResponse {
  status: number;
  body: Buffer;
  etag: string;
  headers: Record<string, string>;
  gzip?: Buffer;
  br?: Buffer;
}

export const publicCacheControl = 'public, max-age=900, stale-while-revalidate=1800';
export const previewCacheControl = 'private, no-store, max-age=0';
export const publicVary = 'Accept-Encoding, X-Preview-Key, X-API-Key';

export const etagOf = (body: Buffer): string => `"${createHash('sha1').update(body).digest('base64url')}"`;

/**
 * The response to a public read's result. The engine hands out the very same object again for
 * a list page it kept (nothing changed since), so the response made of it (its JSON, ETag and
 * compressed forms) is kept with the object and made once, cache or no cache.
 */
const responsesOfResults = new WeakMap<object, CachedResponse>();

export function responseOf(result: unknown, preview: boolean): CachedResponse {
  const kept = !preview && typeof result === 'object' && result !== null ? responsesOfResults.get(result) : undefined;
  if (kept) return kept;
  const body = Buffer.from(JSON.stringify(result));
  const entry: CachedResponse = {
    status: 200,
    body,
    etag: etagOf(body),
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': preview ? previewCacheControl : publicCacheControl,
      vary: publicVary,
    },
  };
  if (!preview && typeof result === 'object' && result !== null) responsesOfResults.set(result, entry);
  return entry;
}

/** Query parameters that name credentials are not part of a response's identity. */
const credentialParams = new Set(['api_key', 'preview']);

/**
 * The identity of a public read: path, the query with its parameters in a fixed order (filters
 * keep theirs, since only the first 20 apply), and the kind of key that asked. Parameters are
 * ordered by name only: a repeated one (`sort=a&sort=b`, where the last counts) keeps its order.
 */
export function cacheKey(path: string, params: URLSearchParams, keyKind: string): string {
  const plain: Array<[string, string]> = [];
  const filters: Array<[string, string]> = [];
  for (const [k, v] of params) {
    if (credentialParams.has(k)) continue;
    (k.startsWith('filter') ? filters : plain).push([k, v]);
  }
  plain.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const q = [...plain, ...filters].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${keyKind} ${path}?${q}`;
}

/**
 * The in-process response cache of public reads, per project. Every committed write that can
 * change a response (here, through the CLI bridge, or in another process on PostgreSQL)
 * announces itself, and the project's entries go. A generation number keeps a response computed
 * before a write from being stored after it.
 */
export function createResponseCache(cms: Cms, options: { enabled: boolean; maxEntriesPerProject?: number }) {
  const projects = new Map<string, { gen: number; entries: Map<string, CachedResponse> }>();
  const max = options.maxEntriesPerProject ?? 5000;
  const slot = (projectId: string) => {
    let s = projects.get(projectId);
    if (!s) { s = { gen: 0, entries: new Map() }; projects.set(projectId, s); }
    return s;
  };
  cms.events.on('content-changed', (projectId) => {
    const s = slot(projectId);
    s.gen++;
    s.entries.clear();
  });
  return {
    enabled: options.enabled,
    generation: (projectId: string) => slot(projectId).gen,
    get(projectId: string, key: string): CachedResponse | undefined {
      if (!options.enabled) return undefined;
      return projects.get(projectId)?.entries.get(key);
    },
    set(projectId: string, key: string, gen: number, value: CachedResponse): void {
      if (!options.enabled) return;
      const s = slot(projectId);
      if (s.gen !== gen) return;
      if (s.entries.size >= max) s.entries.delete(s.entries.keys().next().value!);
      s.entries.set(key, value);
    },
  };
}

export type ResponseCache = ReturnType<typeof createResponseCache>;

/**
 * The codings an Accept-Encoding header allows, with their weights (`br;q=0` refuses brotli). A
 * `*` stands for every coding not named.
 */
function acceptedCodings(header: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    out.set(name.trim(), Number.isFinite(q) ? q : 0);
  }
  return out;
}

/** The body in the encoding the client accepts (brotli before gzip), compressed once and kept with the entry. */
export function encodedBody(entry: CachedResponse, acceptEncoding: string | null): { body: Buffer; encoding: string | null } {
  if (entry.body.length < 1024 || !acceptEncoding) return { body: entry.body, encoding: null };
  const codings = acceptedCodings(acceptEncoding);
  const weight = (name: string) => codings.get(name) ?? codings.get('*') ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  if (br > 0 && br >= gzip) {
    entry.br ??= brotliCompressSync(entry.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
    return { body: entry.br, encoding: 'br' };
  }
  if (gzip > 0) {
    entry.gzip ??= gzipSync(entry.body, { level: 6 });
    return { body: entry.gzip, encoding: 'gzip' };
  }
  return { body: entry.body, encoding: null };
}

export interface CachedAnswer {
  status: number;
  headers: Record<string, string>;
  /** Null for 304. */
  body: Buffer | null;
}

/**
 * A public read answered from its cache entry, the same whichever door serves it (the h3 route
 * or the fast path of `node-server.ts`): the entry's headers, then the request's own (CORS, rate
 * limits), the ETag; 304 to a matching If-None-Match on single reads only (docs/content-api.md); else
 * the body in the encoding the client accepts, with its length.
 */
export function answerFromEntry(
  entry: CachedResponse,
  single: boolean,
  requestHeaders: Record<string, string>,
  ifNoneMatch: string | null,
  acceptEncoding: string | null,
): CachedAnswer {
  const headers: Record<string, string> = { ...entry.headers, ...requestHeaders, etag: entry.etag };
  if (single && matchesEtag(ifNoneMatch, entry.etag)) return { status: 304, headers, body: null };
  const { body, encoding } = encodedBody(entry, acceptEncoding);
  if (encoding) headers['content-encoding'] = encoding;
  headers['content-length'] = String(body.length);
  return { status: entry.status, headers, body };
}
