ALTER TABLE "content_revisions" ADD COLUMN "slot" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "content_revisions" DROP CONSTRAINT "content_revisions_pkey";--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_project_id_slot_pk" PRIMARY KEY("project_id","slot");
