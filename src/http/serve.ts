import type { Server } from 'node:http';
import { toNodeHandler } from 'h3/node';
import type { Cms } from '../runtime.js';
import { createApp, type AppOptions } from './app.js';

export interface ServeOptions extends AppOptions {
  port: number;
  host: string;
}

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close(): Promise<void>;
}

/** Serves the app through listhen, with a graceful close. */
export async function startServer(cms: Cms, options: ServeOptions): Promise<RunningServer> {
  const app = createApp(cms, options);
  const { listen } = await import('listhen');
  const listener = await listen(toNodeHandler(app), {
    port: options.port,
    hostname: options.host,
    showURL: false,
    open: false,
    clipboard: false,
    qr: false,
    public: options.host === '0.0.0.0' || options.host === '::',
    tunnel: false,
    isTest: true,
  } as never);
  const server = listener.server as Server;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  return {
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
    port,
    server,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive sockets would hold close() open; busy ones finish their request first.
        server.closeIdleConnections?.();
      });
    },
  };
}
