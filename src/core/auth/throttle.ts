import type { Services } from '../context.js';

/**
 * Counts failed sign-ins per key (an account's email, a client address) in a sliding window.
 * The runtime may hand in its own (a shared store for several server processes) as
 * `services.loginThrottle`; otherwise each engine keeps one in memory.
 */
export interface LoginThrottle {
  /** Seconds until the most limited key may try again, or null when none is limited. */
  retryAfter(keys: ThrottleKey[], now: Date): number | null;
  fail(keys: ThrottleKey[], now: Date): void;
  reset(key: ThrottleKey): void;
}

export interface ThrottleKey {
  key: string;
  /** Failures allowed inside the window before further attempts are refused. */
  limit: number;
  windowMs: number;
}

export const loginLimits = {
  /** Failures per account (by email, whether or not it exists: the answer must not tell). */
  account: { limit: 5, windowMs: 15 * 60_000 },
  /** Failures per client address: higher, since one address may front several people. */
  address: { limit: 20, windowMs: 15 * 60_000 },
} as const;

const maxTrackedKeys = 50_000;

export function createMemoryLoginThrottle(): LoginThrottle {
  const failures = new Map<string, number[]>();

  const recent = (k: ThrottleKey, now: number): number[] => {
    const list = failures.get(k.key);
    if (!list) return [];
    const kept = list.filter((t) => t > now - k.windowMs);
    if (kept.length) failures.set(k.key, kept);
    else failures.delete(k.key);
    return kept;
  };

  return {
    retryAfter(keys, now) {
      let wait: number | null = null;
      for (const k of keys) {
        const list = recent(k, now.getTime());
        if (list.length < k.limit) continue;
        // Allowed again once enough of the failures have left the window.
        const freesAt = list[list.length - k.limit]! + k.windowMs;
        const seconds = Math.max(1, Math.ceil((freesAt - now.getTime()) / 1000));
        wait = Math.max(wait ?? 0, seconds);
      }
      return wait;
    },
    fail(keys, now) {
      for (const k of keys) {
        const list = recent(k, now.getTime());
        list.push(now.getTime());
        if (!failures.has(k.key) && failures.size >= maxTrackedKeys) {
          // Bounded memory: forget the oldest tracked key (Map keeps insertion order).
          const oldest = failures.keys().next().value;
          if (oldest !== undefined) failures.delete(oldest);
        }
        failures.set(k.key, list);
      }
    },
    reset(key) {
      failures.delete(key.key);
    },
  };
}

const perEngine = new WeakMap<Services, LoginThrottle>();

/** The engine's throttle: the one handed in through services, or one kept per engine. */
export function loginThrottleOf(services: Services): LoginThrottle {
  const given = services.loginThrottle as LoginThrottle | undefined;
  if (given) return given;
  let throttle = perEngine.get(services);
  if (!throttle) {
    throttle = createMemoryLoginThrottle();
    perEngine.set(services, throttle);
  }
  return throttle;
}
