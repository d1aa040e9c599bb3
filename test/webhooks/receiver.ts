import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  /** The exact body bytes as they arrived. */
  raw: Buffer;
  body: any;
}

export type Reply = (received: Received, res: ServerResponse, index: number) => void | Promise<void>;

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Resolves once `n` requests have arrived (fails after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  /** Changes how the next requests are answered. */
  reply(fn: Reply): void;
  close(): Promise<void>;
}

export const ok: Reply = (_r, res) => { res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'); };

/** A real HTTP receiver on 127.0.0.1 that records every request. */
export async function startReceiver(reply: Reply = ok): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let current = reply;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: unknown = null;
      try { body = JSON.parse(raw.toString('utf8')); } catch { body = null; }
      const r: Received = { headers: req.headers, raw, body };
      received.push(r);
      const index = received.length - 1;
      for (const w of waiters.splice(0)) {
        if (received.length >= w.n) w.resolve();
        else waiters.push(w);
      }
      Promise.resolve(current(r, res, index)).catch(() => res.destroy());
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    reply(fn) { current = fn; },
    waitFor(n, timeoutMs = 20_000) {
      if (received.length >= n) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${n} requests`)), timeoutMs);
        waiters.push({ n, resolve: () => { clearTimeout(timer); resolve(received); } });
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 where nothing listens. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
