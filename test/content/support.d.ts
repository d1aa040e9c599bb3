import type { EmittedEvent } from '../../src/runtime.js';
import { type TestCms, type TestCmsOptions } from '../helpers/engine.js';
import { type HttpClient } from '../helpers/http.js';
/** Responses whose JSON tests read freely. */
export type JsonResponse = Omit<Response, 'json'> & {
    json(): Promise<any>;
};
export type DoorName = 'socket' | 'app.fetch';
export declare const doorNames: DoorName[];
export interface RequestOptions {
    /** The X-API-Key header; null sends none. Defaults to the public key (reads) or the secret key (writes). */
    key?: string | null;
    /** Idempotency-Key for writes; null sends none. Defaults to a fresh UUID. */
    idem?: string | null;
    headers?: Record<string, string>;
    /** Which door: the socket server unless told. */
    door?: DoorName;
}
export interface ContentHarness {
    t: TestCms;
    /** The app on a real socket. */
    http: HttpClient;
    /** The same engine through `app.fetch` (its own app, so its own response cache). */
    inProcess: HttpClient;
    projectId: string;
    /** Events committed since the harness started (clear with `events.length = 0`). */
    events: EmittedEvent[];
    keys: {
        public: string;
        secret: string;
        secretNoWrite: string;
        preview: string;
    };
    get(path: string, options?: RequestOptions): Promise<JsonResponse>;
    write(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<JsonResponse>;
    /** POST /api/v1/pages, expecting 201; returns `data`. */
    createPage(body: Record<string, unknown>): Promise<any>;
    /** POST /api/v1/collections/:type, expecting 201; returns `data`. */
    createItem(type: string, body: Record<string, unknown>): Promise<any>;
    /** Inserts a media row directly (no file upload needed for delivery). */
    insertMedia(values?: {
        width?: number | null;
        height?: number | null;
        altText?: string | null;
        originalFilename?: string;
        mimeType?: string;
    }): Promise<{
        id: string;
        filename: string;
    }>;
    insertBlogPost(values: {
        title: string;
        slug: string;
        status?: 'draft' | 'published';
    }): Promise<{
        id: string;
    }>;
    close(): Promise<void>;
}
/** The schema every content suite shares. */
export declare const contentSchema: {
    components: {
        definition: {
            slug: string;
            name: string;
            fields: {
                name: string;
                type: string;
            }[];
        };
    }[];
    pageTypes: {
        definition: {
            slug: string;
            name: string;
            fields: ({
                name: string;
                type: string;
                required: boolean;
                defaultValue?: undefined;
                options?: undefined;
            } | {
                name: string;
                type: string;
                required?: undefined;
                defaultValue?: undefined;
                options?: undefined;
            } | {
                name: string;
                type: string;
                defaultValue: string;
                required?: undefined;
                options?: undefined;
            } | {
                name: string;
                type: string;
                options: {
                    collectionType: string;
                    multiple?: undefined;
                    referenceType?: undefined;
                    componentSlug?: undefined;
                };
                required?: undefined;
                defaultValue?: undefined;
            } | {
                name: string;
                type: string;
                options: {
                    collectionType: string;
                    multiple: boolean;
                    referenceType?: undefined;
                    componentSlug?: undefined;
                };
                required?: undefined;
                defaultValue?: undefined;
            } | {
                name: string;
                type: string;
                options: {
                    referenceType: string;
                    collectionType?: undefined;
                    multiple?: undefined;
                    componentSlug?: undefined;
                };
                required?: undefined;
                defaultValue?: undefined;
            } | {
                name: string;
                type: string;
                options: {
                    componentSlug: string;
                    collectionType?: undefined;
                    multiple?: undefined;
                    referenceType?: undefined;
                };
                required?: undefined;
                defaultValue?: undefined;
            })[];
        };
    }[];
    collections: ({
        definition: {
            slug: string;
            name: string;
            fields: ({
                name: string;
                type: string;
                options?: undefined;
            } | {
                name: string;
                type: string;
                options: {
                    collectionType: string;
                };
            })[];
        };
    } | {
        definition: {
            slug: string;
            name: string;
            fields: ({
                name: string;
                type: string;
                required: boolean;
                defaultValue?: undefined;
            } | {
                name: string;
                type: string;
                defaultValue: string;
                required?: undefined;
            })[];
        };
    })[];
};
export declare function createContentHarness(options?: TestCmsOptions): Promise<ContentHarness>;
/** The keys of a delivered page, in no particular order. */
export declare const pageReadKeys: string[];
export declare const itemReadKeys: string[];
export declare const seoReadKeys: string[];
/** The write shape's members the contract names (the implementation may add more). */
export declare const pageWriteKeys: string[];
export declare const sortedKeys: (o: object) => string[];
