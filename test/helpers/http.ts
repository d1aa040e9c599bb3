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
