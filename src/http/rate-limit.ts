import { CmsError } from '../core/errors.js';
import type { KeyActor } from './auth.js';

/**
 * Who a request is counted for: a secret key alone, a public or preview key together with the
 * client's address (one visitor cannot spend a website's key for everyone). Without a known
 * address (a request that came through `app.fetch`, not a socket) the key alone.
 */
export interface RateLimitSubject {
  keyId: string;
  address: string | null;
}

export function rateLimitSubject(actor: KeyActor, address: string | null): RateLimitSubject {
  return { keyId: actor.keyId, address: actor.type === 'secret' ? null : address };
}

/** One request counted: its RateLimit-* headers, and a way to give the unit back. */
export interface TakenRequest {
  headers: Record<string, string>;
  /** Gives the unit back (an answer that turned out not to count, a 304) and returns the headers after it. */
  giveBack(): Record<string, string>;
}

export interface RateLimiter {
  /** Counts one request of the subject, or throws RATE_LIMITED (counting nothing) over the limit. */
  take(subject: RateLimitSubject): TakenRequest;
  /** The subject's RateLimit-* headers as they stand, counting nothing (a cached answer). */
  peek(subject: RateLimitSubject): Record<string, string>;
  /** How many windows the limiter holds. */
  size(): number;
}

interface Window {
  start: number;
  used: number;
  /** A window of one key and address (bounded by maxWindows), not a key-wide one. */
  perAddress: boolean;
}

export interface RateLimiterOptions {
  now?: () => number;
  /**
   * How many per-address windows may live at once. Ended windows are dropped first; while the
   * table is full of live ones a new address is counted in its key's shared overflow window, so
   * no busy client's window is ever forgotten (which would hand it a fresh budget).
   */
  maxWindows?: number;
}

const noLimit: RateLimiter = {
  take: () => ({ headers: {}, giveBack: () => ({}) }),
  peek: () => ({}),
  size: () => 0,
};

/**
 * Fixed windows: `requests` per `windowSeconds`, a window starting at its subject's first counted
 * request. Answers carry the IETF draft RateLimit-* headers; over the limit the request is refused
 * with 429 and Retry-After. Windows live in one Map in the order they started, so the ended ones
 * are at its front and are dropped there, a few at a time, whenever a window starts.
 */
export function createRateLimiter(limit: { requests: number; windowSeconds: number } | null, options: RateLimiterOptions = {}): RateLimiter {
  if (!limit) return noLimit;
  const now = options.now ?? Date.now;
  const maxWindows = options.maxWindows ?? 50_000;
  const windowMs = limit.windowSeconds * 1000;
  const windows = new Map<string, Window>();
  // Per-address windows; the key-wide ones (secret keys, overflow) are bounded by the number of keys.
  let addressWindows = 0;

  const forget = (name: string) => {
    const w = windows.get(name);
    if (!w) return;
    windows.delete(name);
    if (w.perAddress) addressWindows--;
  };
  const dropEnded = (t: number) => {
    for (const [name, w] of windows) {
      if (t - w.start < windowMs) break;
      forget(name);
    }
  };
  const nameOf = (s: RateLimitSubject) => (s.address === null ? s.keyId : `${s.keyId} ${s.address}`);
  const live = (name: string, t: number) => {
    const w = windows.get(name);
    return w && t - w.start < windowMs ? w : undefined;
  };

  /** The live window the subject is counted in, started if need be. */
  const windowOf = (s: RateLimitSubject, t: number): Window => {
    const name = nameOf(s);
    const own = live(name, t);
    if (own) return own;
    dropEnded(t);
    forget(name);
    const perAddress = s.address !== null;
    if (perAddress && addressWindows >= maxWindows) {
      const overflow = `${s.keyId} *`;
      const shared = live(overflow, t);
      if (shared) return shared;
      forget(overflow);
      return start(overflow, t, false);
    }
    return start(name, t, perAddress);
  };
  const start = (name: string, t: number, perAddress: boolean): Window => {
    const w = { start: t, used: 0, perAddress };
    windows.set(name, w);
    if (perAddress) addressWindows++;
    return w;
  };

  const headersOf = (w: Window | undefined, t: number): Record<string, string> => {
    const reset = w ? Math.max(1, Math.ceil((w.start + windowMs - t) / 1000)) : limit.windowSeconds;
    return {
      'ratelimit-limit': String(limit.requests),
      'ratelimit-remaining': String(limit.requests - (w?.used ?? 0)),
      'ratelimit-reset': String(reset),
    };
  };

  return {
    take(subject) {
      const t = now();
      const w = windowOf(subject, t);
      if (w.used >= limit.requests) {
        const headers = headersOf(w, t);
        const retryAfter = Number(headers['ratelimit-reset']);
        throw new CmsError('RATE_LIMITED', `Too many requests for this key: ${limit.requests} per ${limit.windowSeconds} s; retry in ${retryAfter} s`, {
          retryAfter, headers,
        });
      }
      w.used++;
      return {
        headers: headersOf(w, t),
        giveBack() {
          // A window that ended meanwhile is not touched: the unit was counted in it, not in the next.
          if (w.used > 0 && now() - w.start < windowMs) w.used--;
          return headersOf(w, now());
        },
      };
    },
    peek(subject) {
      const t = now();
      const name = nameOf(subject);
      // A newcomer while the table is full would be counted in its key's overflow window.
      const w = live(name, t) ?? (subject.address !== null && addressWindows >= maxWindows ? live(`${subject.keyId} *`, t) : undefined);
      return headersOf(w, t);
    },
    size: () => windows.size,
  };
}
