ALTER TABLE "projects" ADD COLUMN "locales" jsonb DEFAULT '[{"code":"en","name":"English","fallback":null}]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "default_locale" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_items" ADD COLUMN "draft_locales" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_items" ADD COLUMN "published_locales" jsonb;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "draft_locales" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "published_locales" jsonb;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "seo_locales" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "published_seo_locales" jsonb;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "locales" jsonb DEFAULT '{}'::jsonb NOT NULL;