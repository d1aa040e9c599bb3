import { type FakeAccount, type FakeAuthor, type FakeItem, type FakePage, type FakePost } from './account.js';
export type Json = string | number | boolean | null | Json[] | {
    [key: string]: Json;
};
export interface RenderOptions {
    /** Reference depth, 1..5; the requested entity is level 1. */
    levels: number;
    altMediaText: boolean;
}
export declare const defaultRenderOptions: RenderOptions;
export declare function mediaUrl(account: FakeAccount, id: string): string;
export declare function itemUri(collection: string, id: number): string;
export declare function pageUri(pageType: string | null, slug: string): string;
export interface Renderer {
    page(page: FakePage): Json;
    item(item: FakeItem): Json;
}
/**
 * A renderer over the account as it is now (lookups are built once per renderer, so create one per
 * request: tests may change the account of a running server).
 */
export declare function createRenderer(account: FakeAccount, opts?: RenderOptions): Renderer;
export interface PostRenderOptions {
    excludeBody?: boolean;
    /** Detail and recent_posts shapes: `url` is null and `deleted: null` is present (as recorded). */
    detail?: boolean;
}
export declare function renderPost(account: FakeAccount, post: FakePost, opts?: PostRenderOptions): Json;
export declare function renderAuthor(account: FakeAccount, author: FakeAuthor, includeRecentPosts: boolean): Json;
