import type { CmsConfig } from '../../src/config.js';
import type { Role } from '../../src/core/roles.js';
import { createManualClock, type TestCms } from '../helpers/engine.js';
import { type HttpClient } from '../helpers/http.js';
export declare const password = "correct horse battery staple";
/** Responses whose JSON tests read freely. */
export type JsonResponse = Omit<Response, 'json'> & {
    json(): Promise<any>;
};
export interface AdminHarness {
    t: TestCms;
    http: HttpClient;
    clock: ReturnType<typeof createManualClock>;
    /** Creates a user with this role in the default project (or the one named). */
    createUser(role: Role, options?: {
        email?: string;
        project?: string;
    }): Promise<{
        id: string;
        email: string;
    }>;
    /** Signs in and returns the `cms_session=…` pair to send as the Cookie header. */
    signIn(email: string, pw?: string): Promise<string>;
    /** A JSON request with the session cookie (and optional X-Project). */
    call(method: string, path: string, options?: {
        cookie?: string;
        body?: unknown;
        project?: string;
        headers?: Record<string, string>;
    }): Promise<JsonResponse>;
    /** Plain fetch against the server. */
    fetch(path: string, init?: RequestInit): Promise<JsonResponse>;
    close(): Promise<void>;
}
/** An engine on a fresh database with a manual clock, served on a real socket. */
export declare function createAdminHarness(options?: {
    config?: Partial<CmsConfig>;
}): Promise<AdminHarness>;
