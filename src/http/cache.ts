import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Cms } from '../runtime.js';
import { matchesEtag } from './preconditions.js';
import { propertyOf } from '../lib/unknown-values.js';

export interface CachedResponse {
  status: number;
  body: Buffer;
  etag: string;
  headers: Record<string, string>;
  gzip?: Buffer;
  br?: Buffer;
  /**
   * The fast path's ready-made answers (`node-server.ts`), per kind of answer (304 or not,
   * Accept-Encoding, which limit headers): they live and go with the entry.
   */
  answers?: Map<string, AnswerTemplate>;
}

/**
 * An answer as a raw header list in the order h3 sends them, with the slots the request's own
 * rate-limit values go in (made by the fast path of `node-server.ts` from `answerFromEntry`).
 */
export interface AnswerTemplate {
  status: number;
  raw: string[];
  slots: Array<[number, string]>;
  body: Buffer | null;
}

export const publicCacheControl = 'public, max-age=900, stale-while-revalidate=1800';
export const previewCacheControl = 'private, no-store, max-age=0';
export const publicVary = 'Accept-Encoding, X-Preview-Key, X-API-Key';

export const etagOf = (body: Buffer): string => `"${createHash('sha1').update(body).digest('base64url')}"`;

/**
 * The JSON of frozen entries of lists, kept with them: an entry the engine keeps for later reads
 * (`services.readMemory`) is frozen and never changes, and a list never seen before is mostly made
 * of such entries, so its answer is mostly joined from JSON made once. Held weakly: it goes with
 * its entry.
 */
const entryJson = new WeakMap<object, string>();

function jsonOfEntry(entry: unknown): string {
  if (typeof entry !== 'object' || entry === null || !Object.isFrozen(entry)) return JSON.stringify(entry) ?? 'null';
  let json = entryJson.get(entry);
  if (json === undefined) {
    json = JSON.stringify(entry);
    entryJson.set(entry, json);
  }
  return json;
}

/**
 * `JSON.stringify(result)`, byte for byte, with the entries of a top-level `data` array taken from
 * `entryJson` when they are frozen.
 */
export function jsonOfResult(result: unknown): string {
  if (typeof result !== 'object' || result === null || Array.isArray(result) || !Array.isArray(propertyOf(result, 'data'))) return JSON.stringify(result);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(result)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    const json = key === 'data' && Array.isArray(value) ? `[${value.map(jsonOfEntry).join(',')}]` : JSON.stringify(value);
    parts.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${parts.join(',')}}`;
}

/** The response to a public read's result: its JSON, ETag and headers (compressed forms come when asked for). */
export function responseOf(result: unknown, preview: boolean): CachedResponse {
  const body = Buffer.from(jsonOfResult(result));
  return {
    status: 200,
    body,
    etag: etagOf(body),
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': preview ? previewCacheControl : publicCacheControl,
      vary: publicVary,
    },
  };
}

/** Query parameters that name credentials are not part of a response's identity. */
const credentialParams = new Set(['api_key', 'preview']);

/**
 * The identity of a public read: path, the query with its parameters in a fixed order (filters
 * keep theirs, since only the first 20 apply), and the kind of key that asked. Parameters are
 * ordered by name only: a repeated one (`sort=a&sort=b`, where the last counts) keeps its order.
 * `locale` is one of them: each locale's answer (and `*`'s) is an entry of its own, dropped with
 * the rest of the project's on every write.
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
 * What an entry counts against the cache's bound: its body twice (room for the compressed forms
 * made when a client asks for them, which for JSON over 1 KB are smaller than the body) and
 * 2 KB for its headers and the fast path's ready-made answers.
 */
export const entrySize = (entry: CachedResponse): number => 2 * entry.body.length + 2048;

/**
 * An answer kept but not asked for again yet: its body waits in the arena (`createBodyArena`),
 * its headers here.
 */
class WaitingAnswer {
  readonly status: number;
  readonly etag: string;
  readonly headers: Record<string, string>;
  readonly length: number;
  constructor(entry: CachedResponse, readonly at: number) {
    this.status = entry.status;
    this.etag = entry.etag;
    this.headers = entry.headers;
    this.length = entry.body.length;
  }
}

/** What a waiting answer counts against the answers' LRU: its body is in the arena, which has its own bound. */
const waitingSize = 2048;

/**
 * The server's one response cache of public reads, keyed on the project and `cacheKey`, kept on
 * the answers' half of what the engine keeps (`cms.kept.answers`, src/kept.ts: an LRU over every
 * project, bounded by bytes, an answer counting `entrySize`). Every committed write that can
 * change a response (here, through the CLI bridge, or in another process on PostgreSQL) moves its
 * project to a new generation: the project's older answers are stale from then on, and an answer
 * computed across a write is not kept.
 *
 * Misses are coalesced: while an answer is being computed for a key, everyone else who asks for
 * it in the same generation awaits that computation instead of starting their own. A request that
 * comes after a write never joins a computation that began before it.
 */
export function createResponseCache(cms: Cms, options: { enabled: boolean }) {
  const { kept } = cms;
  // Answering from what is kept means following every change notice (src/runtime.ts).
  kept.follow();
  const running = new Map<string, { gen: number; answer: Promise<CachedResponse> }>();
  const arena = kept.answerArena;
  return {
    enabled: options.enabled,
    /** The current answer for a key, if one is kept (a waiting answer's body is copied out of the arena on its first hit). */
    get(projectId: string, key: string): CachedResponse | undefined {
      if (!options.enabled) return undefined;
      const gen = kept.generation(projectId);
      const value = kept.answers.get(projectId, gen, key);
      let entry: CachedResponse | undefined;
      if (value instanceof WaitingAnswer) {
        const body = arena.take(value.at, value.length);
        if (body) {
          entry = { status: value.status, body, etag: value.etag, headers: value.headers };
          kept.answers.set(projectId, gen, key, entry, entrySize(entry));
        }
      } else {
        // Only `compute` and the line above keep values under an answer key: WaitingAnswers and CachedResponses.
        entry = value as CachedResponse | undefined;
      }
      if (entry) cms.metrics?.responseCache.inc({ result: 'hit' });
      return entry;
    },
    /**
     * The answer for a key that was not in the cache: computed once for everyone asking at the
     * same time (in the same generation), and kept unless a write came while it was computed.
     * A failed computation is kept by nobody: each of its waiters gets its error.
     */
    compute(projectId: string, key: string, make: () => Promise<CachedResponse>): Promise<CachedResponse> {
      if (!options.enabled) return make();
      cms.metrics?.responseCache.inc({ result: 'miss' });
      const full = `${projectId}\n${key}`;
      const gen = kept.generation(projectId);
      const under = running.get(full);
      if (under && under.gen === gen) return under.answer;
      const answer = make().then((entry) => {
        const at = arena.put(entry.body);
        if (at === null) kept.answers.set(projectId, gen, key, entry, entrySize(entry));
        else kept.answers.set(projectId, gen, key, new WaitingAnswer(entry, at), waitingSize);
        return entry;
      }).finally(() => {
        if (running.get(full)?.answer === answer) running.delete(full);
      });
      running.set(full, { gen, answer });
      return answer;
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
