import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { Agent } from 'undici';
import { classifyAddress } from './private-address.js';
import { propertyOf } from '../lib/unknown-values.js';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** One attempt's outcome: an answer (any status), or an error and no status. */
export interface WebhookResponse {
  statusCode: number | null;
  /** The first `captureBytes` of the answer, decoded as UTF-8. */
  body: string | null;
  retryAfter: string | null;
  error: string | null;
}

export interface WebhookSender {
  /** `signal` cuts the attempt short (a server stopping after its grace period). */
  send(req: WebhookRequest, options?: { signal?: AbortSignal }): Promise<WebhookResponse>;
  close(): Promise<void>;
}

export interface HttpSenderOptions {
  /** The whole attempt: connecting, sending, the answer's headers and the captured body. */
  timeoutMs: number;
  /**
   * Also refuse receivers whose resolved address is loopback, private or reserved
   * (CMS_WEBHOOK_BLOCK_PRIVATE=true). Link-local and cloud metadata addresses are always refused.
   */
  blockPrivate: boolean;
  captureBytes: number;
  /** Connections kept per receiver origin. */
  connections?: number;
  /** Name resolution (node:dns `lookup` unless a test hands in its own). */
  resolve?: typeof dnsLookup;
}

export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
  constructor(host: string, addresses: string[], always: boolean) {
    const where = addresses.length === 1 && addresses[0] === host ? `${host} is` : `${host} resolves to ${addresses.join(', ')},`;
    super(always
      ? `${where} a link-local or cloud metadata address (always refused)`
      : `${where} a private or loopback address (CMS_WEBHOOK_BLOCK_PRIVATE=true)`);
    this.name = 'BlockedAddressError';
  }
}

/** Why `addresses` may not be reached, or null when one of them may. */
function refusal(host: string, addresses: string[], blockPrivate: boolean): BlockedAddressError | null {
  const classes = addresses.map(classifyAddress);
  if (classes.some((c) => c === 'public' || (c === 'private' && !blockPrivate))) return null;
  return new BlockedAddressError(host, addresses, !classes.includes('private') || !blockPrivate);
}

/**
 * Resolves as usual, then keeps only the addresses a webhook may reach: checked on the address
 * actually connected to, so a name that resolves differently at delivery time cannot slip past.
 */
function allowedOnlyLookup(resolve: typeof dnsLookup, blockPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const allowed = addresses.filter((a) => refusal(hostname, [a.address], blockPrivate) === null);
      if (allowed.length === 0) {
        return callback(refusal(hostname, addresses.map((a) => a.address), blockPrivate) ?? new BlockedAddressError(hostname, [], true), '', 0);
      }
      if (options.all) return callback(null, allowed);
      const first = allowed[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * Sends webhooks with undici through one pooled agent (kept-alive connections per receiver).
 * Every engine has a dispatcher, so undici is loaded on the first send only: CLI commands that
 * never send start without it.
 */
export function createHttpSender(options: HttpSenderOptions): WebhookSender {
  let client: Promise<{ agent: Agent; request: typeof import('undici').request }> | null = null;
  const connect = () => client ??= import('undici').then(({ Agent, request }) => ({
    request,
    agent: new Agent({
      connections: options.connections ?? 32,
      keepAliveTimeout: 10_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: {
        timeout: options.timeoutMs,
        lookup: allowedOnlyLookup(options.resolve ?? dnsLookup, options.blockPrivate),
      },
    }),
  }));

  async function send(req: WebhookRequest, sendOptions: { signal?: AbortSignal } = {}): Promise<WebhookResponse> {
    // Loading undici is not the receiver's time: the attempt's clock starts after it.
    const { agent, request } = await connect();
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = sendOptions.signal ? AbortSignal.any([timeout, sendOptions.signal]) : timeout;
    try {
      // An address written in the URL is connected to without a lookup: check it here.
      const host = new URL(req.url).hostname.replace(/^\[|\]$/g, '');
      const refused = isIP(host) ? refusal(host, [host], options.blockPrivate) : null;
      if (refused) throw refused;
      const res = await request(req.url, {
        method: 'POST',
        headers: req.headers,
        body: req.body,
        dispatcher: agent,
        signal,
      });
      const body = await readCapped(res.body, options.captureBytes);
      const retryAfter = res.headers['retry-after'];
      return {
        statusCode: res.statusCode,
        body,
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] ?? null : retryAfter ?? null,
        error: null,
      };
    } catch (e) {
      if (sendOptions.signal?.aborted) return { statusCode: null, body: null, retryAfter: null, error: 'cut short: the server is stopping' };
      return { statusCode: null, body: null, retryAfter: null, error: describeError(e, timeout, options.timeoutMs) };
    }
  }

  return {
    send,
    async close() {
      if (client) await (await client).agent.close();
    },
  };
}

/**
 * Keeps the first `cap` bytes; reads a little further so a kept-alive connection can be reused,
 * and gives up on the rest of a large answer. A body cut short (timeout, reset) keeps what came.
 */
async function readCapped(body: AsyncIterable<Uint8Array>, cap: number): Promise<string> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let read = 0;
  try {
    for await (const chunk of body) {
      read += chunk.length;
      if (kept < cap) {
        const part = Buffer.from(chunk.subarray(0, cap - kept));
        chunks.push(part);
        kept += part.length;
      }
      if (read > cap + 64 * 1024) break;
    }
  } catch { /* what arrived is kept */ }
  // `stream: true` leaves out a multi-byte character cut in half at the cap. A NUL is kept as
  // U+FFFD, as bytes that are not UTF-8 are: a PostgreSQL text column cannot hold it, and the
  // attempt could not be recorded (the delivery was sent again and again, never counted).
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks), { stream: true }).replaceAll('\0', '\uFFFD');
}

function describeError(e: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `timed out after ${timeoutMs} ms`;
  let cur: unknown = e;
  for (let depth = 0; cur && depth < 4; depth++) {
    const err = { code: propertyOf(cur, 'code'), message: propertyOf(cur, 'message'), cause: propertyOf(cur, 'cause'), name: propertyOf(cur, 'name') };
    if (err.name === 'BlockedAddressError' && typeof err.message === 'string') return `refused: ${err.message}`;
    if (typeof err.code === 'string' && err.code.startsWith('UND_ERR_') && err.code.includes('TIMEOUT')) {
      return `timed out after ${timeoutMs} ms`;
    }
    if (typeof err.code === 'string' && !err.code.startsWith('UND_ERR') && typeof err.message === 'string') {
      return `${err.code}: ${err.message}`;
    }
    if (!err.cause && typeof err.message === 'string') {
      return typeof err.code === 'string' ? `${err.code}: ${err.message}` : err.message;
    }
    cur = err.cause;
  }
  return String(e);
}
