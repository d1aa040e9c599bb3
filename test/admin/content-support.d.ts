import type { EmittedEvent } from '../../src/runtime.js';
import type { AdminHarness } from './support.js';
/** Every committed event of the engine, in order; `take()` returns those since the last take. */
export declare function recordEvents(h: AdminHarness): {
    all: EmittedEvent[];
    take(): Array<{
        kind: string;
        data: any;
    }>;
};
export declare const schema: {
    pageTypes: {
        definition: {
            slug: string;
            name: string;
            fields: ({
                name: string;
                label: string;
                type: string;
                required: boolean;
                options?: undefined;
            } | {
                name: string;
                label: string;
                type: string;
                required?: undefined;
                options?: undefined;
            } | {
                name: string;
                label: string;
                type: string;
                options: {
                    collectionType: string;
                };
                required?: undefined;
            })[];
        };
    }[];
    collections: {
        definition: {
            slug: string;
            name: string;
            fields: ({
                name: string;
                label: string;
                type: string;
                required: boolean;
            } | {
                name: string;
                label: string;
                type: string;
                required?: undefined;
            })[];
        };
    }[];
    components: never[];
};
