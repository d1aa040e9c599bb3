import type { EmittedEvent } from '../../src/runtime.js';
import { type TestCms, type TestCmsOptions } from '../helpers/engine.js';
import { type HttpClient } from '../helpers/http.js';
/** Responses whose JSON tests read freely. */
export type JsonResponse = Omit<Response, 'json'> & {
    json(): Promise<any>;
};
export interface MediaHarness {
    t: TestCms;
    http: HttpClient;
    /** Events committed since the harness started (or since `events.length = 0`). */
    events: EmittedEvent[];
    keys: {
        public: string;
        secret: string;
        secretNoMedia: string;
        preview: string;
    };
    /** `cms_session=…` of an editor of the default project. */
    editorCookie: string;
    /** `cms_session=…` of a viewer of the default project. */
    viewerCookie: string;
    fetch(path: string, init?: RequestInit): Promise<JsonResponse>;
    /** POST /api/v1/media with a secret key (or the one given) and a fresh Idempotency-Key (or the one given). */
    upload(bytes: Uint8Array, filename: string, options?: {
        type?: string;
        altText?: string;
        folder?: string;
        key?: string | null;
        idempotencyKey?: string | null;
    }): Promise<JsonResponse>;
    /** A session request to the admin API (JSON body unless a FormData is given). */
    admin(method: string, path: string, options?: {
        body?: unknown;
        cookie?: string;
    }): Promise<JsonResponse>;
    close(): Promise<void>;
}
export declare function createMediaHarness(options?: TestCmsOptions): Promise<MediaHarness>;
/** The path part of a media URL (the base URL of the config is not where the test server listens). */
export declare const pathOf: (url: string) => string;
/** A GET with the path sent exactly as written: no URL normalisation of `..` or `%2e`. */
export declare function rawGet(baseUrl: string, rawPath: string): Promise<{
    status: number;
    body: string;
}>;
/** A small real image of the given format, drawn by sharp. */
export declare function makeImage(format: 'png' | 'jpeg' | 'gif' | 'webp' | 'avif', width: number, height: number, color?: string): Promise<Buffer>;
/** Minimal but genuine headers of non-image formats. */
export declare const samples: {
    pdf: Buffer<ArrayBuffer>;
    mp4: Buffer<ArrayBuffer>;
    webm: Buffer<ArrayBuffer>;
    mp3: Buffer<ArrayBuffer>;
    wav: Buffer<ArrayBuffer>;
    zip: Buffer<ArrayBuffer>;
    text: Buffer<ArrayBuffer>;
    svg: Buffer<ArrayBuffer>;
    html: Buffer<ArrayBuffer>;
    binary: Buffer<ArrayBuffer>;
};
