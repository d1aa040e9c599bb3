ALTER TABLE "collection_items" ADD COLUMN "unpublish_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "unpublish_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "items_unpublish_scheduled_idx" ON "collection_items" USING btree ("unpublish_at") WHERE "collection_items"."unpublish_at" is not null and "collection_items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "pages_unpublish_scheduled_idx" ON "pages" USING btree ("unpublish_at") WHERE "pages"."unpublish_at" is not null and "pages"."deleted_at" is null;