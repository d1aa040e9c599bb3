import { z } from 'zod';
/**
 * A test-only write that emits events the way content operations do (ctx.emit inside the
 * write's transaction), optionally failing afterwards so the transaction rolls back.
 */
export declare const emitEvents: import("../../src/core/operation.js").Operation<z.ZodObject<{
    kind: z.ZodEnum<{
        "page.created": "page.created";
        "page.updated": "page.updated";
        "page.published": "page.published";
        "page.unpublished": "page.unpublished";
        "page.deleted": "page.deleted";
        "collection_item.created": "collection_item.created";
        "collection_item.updated": "collection_item.updated";
        "collection_item.published": "collection_item.published";
        "collection_item.unpublished": "collection_item.unpublished";
        "collection_item.deleted": "collection_item.deleted";
        "media.uploaded": "media.uploaded";
        "media.deleted": "media.deleted";
    }>;
    count: z.ZodDefault<z.ZodNumber>;
    data: z.ZodOptional<z.ZodUnknown>;
    fail: z.ZodOptional<z.ZodEnum<{
        "cms-error": "cms-error";
        "db-error": "db-error";
    }>>;
}, z.core.$strict>, {
    emitted: number;
}>;
