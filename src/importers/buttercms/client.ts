// The ButterCMS read API as the importer uses it: the read token as the
// `auth_token` query parameter, page-number paging that follows `meta.next_page`, and at least
// 100 ms between two requests as the source sees them (the contract's migration limit), media
// downloads included. Nothing is retried: the contract allows no retries, so a failure ends the
// migration.

import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { request, type Dispatcher } from 'undici';

import { defaultButterApiUrl, normaliseButterApiUrl } from '../../lib/buttercms-api-url.js';
import { errorMessage, propertyOf } from '../../lib/unknown-values.js';
import { cutText } from '../../lib/cut-text.js';

export { defaultButterApiUrl };

/** The contract's "100 ms between source requests". */
export const sourceRequestSpacingMs = 100;

/** The contract's page sizes: 100 for page types and collections, 10 for blog posts. */
export const sourcePageSizes = { pages: 100, collections: 100, posts: 10 } as const;

export type SourceFailure =
  | 'unauthorized'
  | 'rate-limited'
  | 'server-error'
  | 'not-found'
  | 'http-error'
  | 'network'
  | 'invalid-response'
  | 'too-large'
  | 'aborted';

/** A request that failed, named by method and URL (never with the token). */
export class SourceRequestError extends Error {
  override name = 'SourceRequestError';
  constructor(
    readonly failure: SourceFailure,
    message: string,
    readonly request: { method: string; url: string },
    readonly status: number | null,
  ) {
    super(message);
  }
}

export interface SourceRequestInfo {
  method: string;
  /** Without the token. */
  url: string;
  status: number | null;
  /** When the request started, in ms on this process's monotonic clock. */
  startedAt: number;
  /** When its answer (status and headers) arrived, on the same clock; null when it failed. */
  answeredAt: number | null;
  durationMs: number;
  kind: 'api' | 'media';
}

export interface ButterClientOptions {
  apiKey: string;
  /** Blank or absent: the default endpoint. With or without the trailing slash, with or without `/v2`. */
  apiUrl?: string | undefined;
  /**
   * The least time between two requests; tests may lower it, the default is 100 ms. It counts
   * from the moment the previous request was answered (see `takeTurn`).
   */
  minIntervalMs?: number | undefined;
  /** Cancels the request in flight and every later one (the process is stopping). */
  signal?: AbortSignal | undefined;
  /** Told about every request once it is answered (or failed). */
  onRequest?: ((info: SourceRequestInfo) => void) | undefined;
  dispatcher?: Dispatcher | undefined;
  /** Per request: time allowed for the answer's headers, and for its body. */
  timeoutMs?: number | undefined;
}

export interface DownloadedFile {
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string | null;
}

export interface ButterClient {
  /** The normalised API base, e.g. `https://api.buttercms.com/v2` (no trailing slash). */
  readonly apiUrl: string;
  /** Requests made so far (API and media). */
  readonly requestCount: number;
  /** Time spent waiting for the spacing between requests so far, in ms. */
  readonly waitedMs: number;
  /** One JSON answer; `path` is relative to the API base, e.g. `/pages/*\/`. */
  get(path: string, query?: Record<string, string | number>): Promise<unknown>;
  /**
   * Every page of a paginated list: page 1, then `meta.next_page` until it is null. `onPage` runs
   * after each page (the importer records progress there, and may stop by throwing).
   */
  list(path: string, query: Record<string, string | number>, pageSize: number, pick: (body: unknown) => unknown[],
    onPage?: (items: unknown[], page: number, count: number | null) => Promise<void>): Promise<unknown[]>;
  /** A media file; none bigger than `maxBytes`. */
  download(url: string, maxBytes: number): Promise<DownloadedFile>;
}

/** `https://api.buttercms.com`, `…/v2`, `…/v2/` all mean the same API base (the core stores it so too). */
export const normaliseApiUrl = normaliseButterApiUrl;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the source said, from a DRF-style `{ "detail": "…" }` body. */
function detailOf(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (isRecord(body) && typeof body.detail === 'string') return body.detail;
    // DRF's per-parameter form, e.g. a 400 for an unknown locale: `{ "locale": ["…"] }`.
    if (isRecord(body)) {
      const parts = Object.entries(body).flatMap(([k, v]) => {
        const texts = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];
        return texts.length ? [`${k}: ${texts.join(' ')}`] : [];
      });
      if (parts.length) return parts.join('; ');
    }
  } catch { /* not JSON */ }
  const trimmed = text.trim();
  return trimmed.length > 200 ? `${cutText(trimmed, 197)}...` : trimmed;
}

function failureOf(status: number): SourceFailure {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 429) return 'rate-limited';
  if (status === 404) return 'not-found';
  if (status >= 500) return 'server-error';
  return 'http-error';
}

function describeFailure(failure: SourceFailure, status: number, detail: string, target: { method: string; url: string }): string {
  const said = detail ? ` ("${detail}")` : '';
  const req = `${target.method} ${target.url}`;
  switch (failure) {
    case 'unauthorized':
      return `ButterCMS refused the API token (${status}${said}) on ${req}: check the read token (--api-key or BUTTERCMS_API_KEY)`;
    case 'rate-limited':
      return `ButterCMS answered 429 Too Many Requests${said} on ${req}: the account's API quota is used up; migrations do not retry`;
    case 'server-error':
      return `ButterCMS answered ${status}${said} on ${req}; migrations do not retry`;
    case 'not-found':
      return `ButterCMS answered 404${said} on ${req}`;
    default:
      return `ButterCMS answered ${status}${said} on ${req}`;
  }
}

export function createButterClient(options: ButterClientOptions): ButterClient {
  const apiUrl = normaliseApiUrl(options.apiUrl);
  const minInterval = Math.max(0, options.minIntervalMs ?? sourceRequestSpacingMs);
  // The source's clock ticks in whole milliseconds; one more keeps its view at the full interval.
  const margin = minInterval > 0 ? 1 : 0;
  const timeoutMs = options.timeoutMs ?? 60_000;
  let lastStart = Number.NEGATIVE_INFINITY;
  let lastAnswered = Number.NEGATIVE_INFINITY;
  let queue: Promise<void> = Promise.resolve();
  let count = 0;
  let waited = 0;

  /**
   * Waits for this request's turn: requests go one at a time, at least `minInterval` after the
   * previous one started and after it was answered. The source takes a request in somewhere
   * between the moment it was sent and the moment it answers; only counting from the answer makes
   * sure the source sees the full interval between two requests, whatever the network or a busy
   * process delays. It costs one round trip per request on top of the interval.
   */
  function takeTurn(): Promise<number> {
    const turn = queue.then(async () => {
      const target = Math.max(lastStart, lastAnswered) + minInterval + margin;
      const before = performance.now();
      for (let now = before; now < target; now = performance.now()) {
        await sleep(Math.ceil(target - now), undefined, options.signal ? { signal: options.signal } : undefined);
      }
      lastStart = performance.now();
      waited += lastStart - before;
      return lastStart;
    });
    queue = turn.then(() => undefined, () => undefined);
    return turn;
  }

  const aborted = (target: { method: string; url: string }) =>
    new SourceRequestError('aborted', `The migration was stopped during ${target.method} ${target.url}`, target, null);

  async function send(url: URL, display: string, kind: 'api' | 'media'): Promise<Dispatcher.ResponseData> {
    const target = { method: 'GET', url: display };
    if (options.signal?.aborted) throw aborted(target);
    let startedAt: number;
    try {
      startedAt = await takeTurn();
    } catch {
      throw aborted(target);
    }
    count += 1;
    try {
      const res = await request(url, {
        method: 'GET',
        // One connection per request: a kept-alive socket that the server closes just as it is
        // reused fails with ECONNRESET, and a migration does not retry. Requests are 100 ms apart
        // anyway, far longer than a socket is worth keeping for.
        reset: true,
        headers: { accept: kind === 'api' ? 'application/json' : '*/*', 'x-butter-client': 'cms-importer/1' },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      });
      lastAnswered = performance.now();
      options.onRequest?.({ method: 'GET', url: display, status: res.statusCode, startedAt, answeredAt: lastAnswered, durationMs: lastAnswered - startedAt, kind });
      return res;
    } catch (e) {
      lastAnswered = performance.now();
      options.onRequest?.({ method: 'GET', url: display, status: null, startedAt, answeredAt: null, durationMs: lastAnswered - startedAt, kind });
      if (options.signal?.aborted) throw aborted(target);
      const own = propertyOf(e, 'code');
      const inner = propertyOf(propertyOf(e, 'cause'), 'code');
      const code = typeof own === 'string' ? own : typeof inner === 'string' ? inner : errorMessage(e);
      throw new SourceRequestError('network', `GET ${display} failed: ${code}; migrations do not retry`, target, null);
    }
  }

  async function failOn(res: Dispatcher.ResponseData, target: { method: string; url: string }): Promise<never> {
    const text = await res.body.text().catch(() => '');
    const failure = failureOf(res.statusCode);
    throw new SourceRequestError(failure, describeFailure(failure, res.statusCode, detailOf(text), target), target, res.statusCode);
  }

  async function get(path: string, query: Record<string, string | number> = {}): Promise<unknown> {
    // Every path ends with a slash, as the docs ask (a missing one may be answered with a 301).
    const url = new URL(`${apiUrl}${path.startsWith('/') ? path : `/${path}`}`.replace(/\/?$/, '/'));
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    const display = url.toString();
    url.searchParams.set('auth_token', options.apiKey);
    const target = { method: 'GET', url: display };
    const res = await send(url, display, 'api');
    if (res.statusCode < 200 || res.statusCode >= 300) return failOn(res, target);
    const text = await res.body.text().catch((e: unknown) => {
      if (options.signal?.aborted) throw aborted(target);
      throw new SourceRequestError('network', `GET ${display}: the answer broke off (${errorMessage(e)})`, target, res.statusCode);
    });
    try {
      const body: unknown = JSON.parse(text);
      return body;
    } catch {
      throw new SourceRequestError('invalid-response', `GET ${display} did not answer JSON`, target, res.statusCode);
    }
  }

  async function list(
    path: string,
    query: Record<string, string | number>,
    pageSize: number,
    pick: (body: unknown) => unknown[],
    onPage?: (items: unknown[], page: number, count: number | null) => Promise<void>,
  ): Promise<unknown[]> {
    const all: unknown[] = [];
    let page: number | null = 1;
    const seen = new Set<number>();
    while (page !== null) {
      seen.add(page);
      const body = await get(path, { ...query, page, page_size: pageSize });
      const items = pick(body);
      all.push(...items);
      const meta = isRecord(body) && isRecord(body.meta) ? body.meta : {};
      const next = meta.next_page;
      const total = typeof meta.count === 'number' ? meta.count : null;
      await onPage?.(items, page, total);
      // A next page seen before would loop forever; the source would be broken, so stop there.
      page = typeof next === 'number' && Number.isInteger(next) && !seen.has(next) ? next : null;
    }
    return all;
  }

  async function download(raw: string, maxBytes: number): Promise<DownloadedFile> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new SourceRequestError('http-error', `Media URL ${raw} is not a URL`, { method: 'GET', url: raw }, null);
    }
    const display = url.toString();
    const target = { method: 'GET', url: display };
    const res = await send(url, display, 'media');
    if (res.statusCode < 200 || res.statusCode >= 300) return failOn(res, target);
    const declared = Number(res.headers['content-length'] ?? Number.NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      await res.body.dump().catch(() => {});
      throw new SourceRequestError('too-large', `${display} is ${declared} bytes; uploads are limited to ${maxBytes} bytes`, target, res.statusCode);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
        size += buf.byteLength;
        if (size > maxBytes) {
          res.body.destroy();
          throw new SourceRequestError('too-large', `${display} is over ${maxBytes} bytes; uploads are limited to that`, target, res.statusCode);
        }
        chunks.push(buf);
      }
    } catch (e) {
      if (e instanceof SourceRequestError) throw e;
      if (options.signal?.aborted) throw aborted(target);
      throw new SourceRequestError('network', `GET ${display}: the download broke off (${errorMessage(e)})`, target, res.statusCode);
    }
    const type = res.headers['content-type'];
    return { bytes: Buffer.concat(chunks), contentType: typeof type === 'string' ? type : null };
  }

  return {
    apiUrl,
    get requestCount() { return count; },
    get waitedMs() { return waited; },
    get,
    list,
    download,
  };
}
