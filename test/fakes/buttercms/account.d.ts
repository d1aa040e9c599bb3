export type ItemRef = {
    $ref: 'item';
    collection: string;
    id: number;
};
export type PageRef = {
    $ref: 'page';
    slug: string;
};
export type MediaRef = {
    $media: string;
};
export type RawValue = string | number | boolean | null | ItemRef | PageRef | MediaRef | RawValue[] | RawObject;
export interface RawObject {
    [key: string]: RawValue;
}
export interface FakePage {
    slug: string;
    name: string;
    published: string;
    updated: string;
    page_type: string | null;
    fields: RawObject;
}
export interface FakeItem {
    id: number;
    fields: RawObject;
}
export interface FakeAuthor {
    first_name: string;
    last_name: string;
    email: string;
    slug: string;
    bio: string;
    title: string;
    linkedin_url: string;
    facebook_url: string;
    instagram_url: string;
    pinterest_url: string;
    twitter_handle: string;
    profile_image: string;
}
export interface FakeTerm {
    name: string;
    slug: string;
}
export interface FakePost {
    status: 'published';
    created: string;
    updated: string;
    published: string;
    title: string;
    slug: string;
    body: string;
    summary: string;
    seo_title: string;
    meta_description: string;
    featured_image: string | null;
    featured_image_alt: string;
    /** Author slug; rendered as the embedded author object. */
    author: string;
    tags: string[];
    categories: string[];
}
export interface FakeMedia {
    id: string;
    alt: string;
    width: number;
    height: number;
    /** PNGs, and PDFs (width and height 0), which land in a field that becomes a media field. */
    contentType: 'image/png' | 'application/pdf';
    bytes: Buffer;
    sha256: string;
}
export interface FakeAccount {
    /** e.g. `http://127.0.0.1:PORT/media`; every media URL is `${mediaBaseUrl}/${id}`. */
    mediaBaseUrl: string;
    media: FakeMedia[];
    /** Every page, single pages (page_type null) included, in creation order. */
    pages: FakePage[];
    collections: Record<string, FakeItem[]>;
    /** Newest first, as `/posts/` serves them. */
    posts: FakePost[];
    authors: FakeAuthor[];
    categories: FakeTerm[];
    tags: FakeTerm[];
}
export declare function isItemRef(value: unknown): value is ItemRef;
export declare function isPageRef(value: unknown): value is PageRef;
export declare function isMediaRef(value: unknown): value is MediaRef;
export declare const MEDIA_IDS: {
    readonly springHero: "Qm3xT8aLkR2pVbN9wZyE";
    readonly coyotePhoto: "H7dPqL0sWc4uYtRz8KbM";
    readonly launchHero: "Z2vYk9WmP4tRs1LqA0cD";
    readonly builtTough: "bN5cX7eR1tYu3IoP9aSd";
    readonly summerHero: "Lr8sV2nQ0wXy6TzK4mPa";
    readonly runnerPhoto: "pE4gW1kY7uJ3hN6bV0cX";
    readonly anvilFeatured: "Tq9wE2rY5uI8oP1aS4dF";
    readonly runnerProfile: "yU7iO9pA2sD4fG6hJ8kL";
    /** The same bytes as `springHero`, uploaded a second time: the importer must deduplicate it. */
    readonly springHeroCopy: "Dp8QmXtRaLkT2pVbN9wE";
    readonly marvinProfile: string;
    readonly officePhoto: string;
    readonly inlineDiagram: string;
    readonly product: string[];
    readonly landingHero: string[];
    readonly poster: string[];
    readonly gallery: string[];
    readonly postImage: string[];
    readonly menuIcon: string[];
    /** PDFs: product spec sheets. */
    readonly specSheet: string[];
};
export declare const PEOPLE_FIRST_ID = 812001;
export declare const PRODUCTS_FIRST_ID = 812040;
export declare const MENU_FIRST_ID = 813001;
/** Builds the account; `mediaBaseUrl` is where the fake serves media (`http://127.0.0.1:PORT/media`). */
export declare function createFakeAccount(mediaBaseUrl: string): FakeAccount;
/** What an importer is told up front: event-page is missing on purpose (it must be discovered). */
export declare const fakeImportConfig: {
    readonly pageTypes: readonly ["landing-page", "product-page"];
    readonly collections: readonly ["people", "products", "navigation_menu_item"];
};
/** Media ids referenced anywhere in the account: fields, post images, author images, inside HTML. */
export declare function referencedMediaIds(account: FakeAccount): {
    all: string[];
    inFields: string[];
    onlyInHtml: string[];
};
/** Counts an import of the fake account should produce. Checked against literals in server.test.ts. */
export declare const expectedCounts: {
    pageTypes: {
        'landing-page': number;
        'product-page': number;
        'event-page': number;
    };
    /** Page types reachable only through references from other pages. */
    discoverablePageTypes: string[];
    singlePages: number;
    pages: number;
    collections: {
        people: number;
        products: number;
        navigation_menu_item: number;
    };
    collectionItems: number;
    posts: number;
    authors: number;
    authorsWithEmail: number;
    categories: number;
    tags: number;
    /** Kebab-case slugs an importer should create (picker types and embedded components). */
    components: string[];
    media: {
        /** Distinct media URLs anywhere in the content, HTML bodies included. */
        urls: number;
        /** Distinct media URLs in fields, post featured images and author images (not only in HTML). */
        urlsOutsideHtml: number;
        /** URLs that appear only inside WYSIWYG/post HTML. */
        urlsOnlyInHtml: number;
        /** Distinct byte contents: one URL pair shares its bytes. */
        uniqueContents: number;
    };
};
