import { isIP } from 'node:net';

/**
 * The client's address for sign-in throttling, by the `trustProxy` setting:
 * - null: unknown (nothing is counted per address);
 * - 0: no proxy in front, the socket's address;
 * - N: N trusted proxies in front, each appending the address it saw to X-Forwarded-For, so the
 *   client is the N-th entry from the right. Entries further left were written by the client
 *   and are never read. With fewer entries than N, the left-most one (like Express's hop count).
 * Null too when the chosen entry is not an IP address.
 */
export function clientAddress(trustProxy: number | null, socketAddress: string | undefined, forwardedFor: string | null): string | null {
  if (trustProxy === null) return null;
  if (trustProxy === 0 || !forwardedFor) return normalise(socketAddress);
  const hops = forwardedFor.split(',').map((s) => s.trim()).filter(Boolean);
  if (hops.length === 0) return normalise(socketAddress);
  return normalise(hops[Math.max(0, hops.length - trustProxy)]);
}

/**
 * The client's address for the public API's rate limit, the same for both doors (the h3 app and
 * the fast path of node-server.ts). As `clientAddress`, except that without the trusted-proxy
 * setting it is the socket's address, X-Forwarded-For unread: behind a proxy nobody declared
 * that is the proxy's one address, so every visitor shares the key's budget, as without
 * per-address counting; in front of nothing it is the visitor's own.
 */
export function rateLimitAddress(trustProxy: number | null, socketAddress: string | undefined, forwardedFor: string | null): string | null {
  return clientAddress(trustProxy ?? 0, socketAddress, forwardedFor);
}

function normalise(address: string | undefined): string | null {
  if (!address) return null;
  let a = address.trim();
  // `[::1]:443` and `203.0.113.7:51000`: the port is not part of the address.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1]!;
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(':'));
  if (!isIP(a)) return null;
  a = a.toLowerCase();
  // An IPv4 client on a dual-stack socket is the same client as on an IPv4 one.
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  return mapped ? mapped[1]! : a;
}
