import { expect } from 'vitest';
import type { Cms } from '../../src/runtime.js';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { createApp, type AppOptions } from '../../src/http/app.js';

export interface HttpClient {
  /** `fetch` against the app: through a real socket, or straight into `app.fetch`. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
  url: string;
}

/** The app served on a real socket on 127.0.0.1 (port 0). */
export async function serveOverSocket(cms: Cms, options: AppOptions = {}): Promise<HttpClient & { server: RunningServer }> {
  const server = await startServer(cms, { port: 0, host: '127.0.0.1', ...options });
  return {
    server,
    url: server.url,
    fetch: (path, init) => fetch(server.url + path, init),
    close: () => server.close(),
  };
}

/** The same app without a socket, through h3's `app.fetch`. */
export function serveInProcess(cms: Cms, options: AppOptions = {}): HttpClient {
  const app = createApp(cms, options);
  const url = 'http://cms.test';
  return {
    url,
    fetch: async (path, init) => app.fetch(new Request(url + path, init)),
    close: async () => {},
  };
}

/** Both doors, for suites that run once per door. */
export const doors = [
  ['socket', serveOverSocket],
  ['app.fetch', async (cms: Cms, options?: AppOptions) => serveInProcess(cms, options)],
] as const;

/**
 * Reads and writes through a client for suites that only expect success: `get` answers the JSON
 * of a 200 (the read key unless other headers are given), `write` sends JSON with the write key
 * and a fresh Idempotency-Key and expects a 2xx. The client and keys are read at each call (suites
 * make them in `beforeAll`).
 */
export function expectingSuccess(client: () => HttpClient, keys: () => { read: string; write: string }) {
  let n = 0;
  return {
    async get(path: string, headers?: Record<string, string>): Promise<any> {
      const r = await client().fetch(path, { headers: headers ?? { 'x-api-key': keys().read } });
      expect(r.status, path).toBe(200);
      return r.json();
    },
    async write(method: string, path: string, body?: unknown): Promise<void> {
      const r = await client().fetch(path, {
        method,
        headers: { 'x-api-key': keys().write, 'idempotency-key': `write-${Date.now()}-${++n}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(r.status, `${method} ${path}: ${await r.clone().text()}`).toBeLessThan(300);
    },
  };
}
