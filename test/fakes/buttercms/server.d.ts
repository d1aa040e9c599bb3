import { type FakeAccount } from './account.js';
export type FakeButterMode = 'normal' | 'fail-midway' | 'slow' | 'bad-token' | 'rate-limited';
export interface FakeButterOptions {
    token?: string;
    mode?: FakeButterMode;
    /**
     * fail-midway: API requests answered successfully before every further one gets a 500 (default 3).
     * Media requests neither count nor fail in any mode: like ButterCMS's CDN, they are separate from
     * the API (no token, no quota).
     */
    failAfterRequests?: number;
    /** slow: delay before every answer, media included (default 250 ms). */
    delayMs?: number;
    /** A custom account, e.g. one with conflicting field types; built from the media base URL. */
    account?: (mediaBaseUrl: string) => FakeAccount;
}
export interface FakeButterRequest {
    method: string;
    path: string;
    query: Record<string, string>;
    at: number;
}
export interface FakeButter {
    /** API base, e.g. `http://127.0.0.1:PORT/v2` (no trailing slash). */
    url: string;
    token: string;
    /** Every request received, API and media, in arrival order. */
    requests: FakeButterRequest[];
    close(): Promise<void>;
    /** The live account: changes are visible to later requests. */
    account: FakeAccount;
}
/** Starts the fake on 127.0.0.1 with an ephemeral port. */
export declare function startFakeButter(opts?: FakeButterOptions): Promise<FakeButter>;
