DROP INDEX "items_published_idx";--> statement-breakpoint
DROP INDEX "items_name_idx";--> statement-breakpoint
DROP INDEX "pages_published_idx";--> statement-breakpoint
DROP INDEX "pages_type_published_idx";--> statement-breakpoint
CREATE INDEX "items_published_idx" ON "collection_items" USING btree ("collection_type_id","published_at" DESC NULLS LAST,"id") WHERE "collection_items"."deleted_at" is null and "collection_items"."status" = 'published';--> statement-breakpoint
CREATE INDEX "items_name_idx" ON "collection_items" USING btree ("collection_type_id","name","id") WHERE "collection_items"."deleted_at" is null and "collection_items"."status" = 'published';--> statement-breakpoint
CREATE INDEX "pages_published_idx" ON "pages" USING btree ("project_id","published_at" DESC NULLS LAST,"id") WHERE "pages"."deleted_at" is null and "pages"."status" = 'published';--> statement-breakpoint
CREATE INDEX "pages_type_published_idx" ON "pages" USING btree ("project_id","page_type_id","published_at" DESC NULLS LAST,"id") WHERE "pages"."deleted_at" is null and "pages"."status" = 'published';