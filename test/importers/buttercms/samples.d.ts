import { type FakeAccount } from '../../fakes/buttercms/account.js';
import { type Json } from '../../fakes/buttercms/render.js';
import type { SampleGroup } from '../../../src/importers/buttercms/infer.js';
/** `data[0].fields` of §7a. */
export declare const springLaunchFields: {
    seo: {
        title: string;
        description: string;
    };
    headline: string;
    intro: string;
    hero_image: string;
    launch_date: string;
    price: number;
    is_featured: boolean;
    theme: string;
    author: {
        meta: {
            id: number;
        };
        name: string;
        photo: string;
    };
    related_products: {
        meta: {
            id: number;
        };
        name: string;
        sku: string;
    }[];
    faq: {
        question: string;
        answer: string;
    }[];
    body: ({
        type: string;
        fields: {
            headline: string;
            image: string;
            button_label: string;
            button_url: string;
            subheadline?: undefined;
            image_position?: undefined;
        };
    } | {
        type: string;
        fields: {
            headline: string;
            subheadline: string;
            image: string;
            image_position: string;
            button_label?: undefined;
            button_url?: undefined;
        };
    })[];
};
/** `data[1].fields` of §7a: empty values, and the author past the `levels` limit. */
export declare const summerSaleFields: {
    seo: {
        title: string;
        description: string;
    };
    headline: string;
    intro: string;
    hero_image: string;
    launch_date: string;
    price: number;
    is_featured: boolean;
    theme: string;
    author: string;
    related_products: never[];
    faq: never[];
    body: never[];
};
/** §7a's ids belong to these collections (§7b and the fake account agree). */
export declare function collectionOfSpecItem(id: number | string): string | undefined;
export declare const MEDIA_BASE = "http://127.0.0.1:4010/media";
export declare const MEDIA_HOST = "127.0.0.1:4010";
export interface RenderedAccount {
    account: FakeAccount;
    groups: SampleGroup[];
    /** Delivered pages by slug (fields as served at levels=2). */
    pages: Map<string, {
        page_type: string | null;
        fields: Record<string, Json>;
    }>;
    /** Delivered items by id, with the collection key. */
    items: Map<number, {
        collection: string;
        item: Record<string, Json>;
    }>;
}
/** The fake account as the importer would read it: every page type, collection and single page. */
export declare function renderAccount(levels?: number): RenderedAccount;
