import type { Cms } from '../../src/runtime.js';
import { type RunningServer } from '../../src/http/serve.js';
import { type AppOptions } from '../../src/http/app.js';
export interface HttpClient {
    /** `fetch` against the app: through a real socket, or straight into `app.fetch`. */
    fetch(path: string, init?: RequestInit): Promise<Response>;
    close(): Promise<void>;
    url: string;
}
/** The app served on a real socket on 127.0.0.1 (port 0). */
export declare function serveOverSocket(cms: Cms, options?: AppOptions): Promise<HttpClient & {
    server: RunningServer;
}>;
/** The same app without a socket, through h3's `app.fetch`. */
export declare function serveInProcess(cms: Cms, options?: AppOptions): HttpClient;
/** Both doors, for suites that run once per door. */
export declare const doors: readonly [readonly ["socket", typeof serveOverSocket], readonly ["app.fetch", (cms: Cms, options?: AppOptions) => Promise<HttpClient>]];
