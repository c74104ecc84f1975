CREATE SEQUENCE "public"."leak_segment_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "leak_bulk_batches" (
	"source_id" uuid NOT NULL,
	"first_row" bigint NOT NULL,
	"last_row" bigint NOT NULL,
	"rows" integer NOT NULL,
	CONSTRAINT "leak_bulk_batches_source_id_first_row_pk" PRIMARY KEY("source_id","first_row")
);
--> statement-breakpoint
CREATE TABLE "leak_bulk_loads" (
	"source_id" uuid PRIMARY KEY NOT NULL,
	"segment" integer NOT NULL,
	"file_fingerprint" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- leak_records becomes PARTITIONED BY LIST ("segment"). Segment 0 is the table every import wrote so
-- far, renamed leak_records_shared and unchanged (hash-partitioned by record_hash, its primary key and
-- indexes): ordinary imports keep writing there. A bulk load of a new source fills a standalone table
-- without secondary indexes, builds them, then attaches it as a segment of its own
-- (modules/leaks/import/README.md). Uniqueness of (record_hash, source_id) is kept per segment: a
-- source's records all live in one segment (leak_sources.segment).
ALTER TABLE "leak_records" RENAME TO "leak_records_shared";--> statement-breakpoint
ALTER TABLE "leak_records_shared" ADD COLUMN "segment" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Lets ATTACH below skip its scan of the rows (the check itself reads them once, here).
ALTER TABLE "leak_records_shared" ADD CONSTRAINT "leak_records_shared_segment_check" CHECK ("segment" = 0);--> statement-breakpoint
ALTER INDEX "leak_records_email_idx" RENAME TO "leak_records_shared_email_idx";--> statement-breakpoint
ALTER INDEX "leak_records_phone_idx" RENAME TO "leak_records_shared_phone_idx";--> statement-breakpoint
ALTER INDEX "leak_records_username_idx" RENAME TO "leak_records_shared_username_idx";--> statement-breakpoint
ALTER INDEX "leak_records_name_idx" RENAME TO "leak_records_shared_name_idx";--> statement-breakpoint
ALTER INDEX "leak_records_id_idx" RENAME TO "leak_records_shared_id_idx";--> statement-breakpoint
ALTER INDEX "leak_records_source_idx" RENAME TO "leak_records_shared_source_idx";--> statement-breakpoint
ALTER INDEX "leak_records_pkey" RENAME TO "leak_records_shared_pkey";--> statement-breakpoint
CREATE TABLE "leak_records" (
	"id" bigint DEFAULT nextval('leak_records_id_seq') NOT NULL,
	"source_id" uuid NOT NULL,
	"record_hash" text NOT NULL,
	"name" text,
	"email" text,
	"phone" text,
	"username" text,
	"address" text,
	"other" jsonb,
	"email_norm" text,
	"phone_norm" text,
	"username_norm" text,
	"name_tokens" text[],
	"segment" integer DEFAULT 0 NOT NULL
) PARTITION BY LIST ("segment");--> statement-breakpoint
ALTER TABLE "leak_records" ATTACH PARTITION "leak_records_shared" FOR VALUES IN (0);--> statement-breakpoint
-- The same indexes on the parent (ON ONLY: no build), with the shared table's attached to them, so
-- that every segment attached later must carry them too.
CREATE INDEX "leak_records_email_idx" ON ONLY "leak_records" ("email_norm", "id");--> statement-breakpoint
ALTER INDEX "leak_records_email_idx" ATTACH PARTITION "leak_records_shared_email_idx";--> statement-breakpoint
CREATE INDEX "leak_records_phone_idx" ON ONLY "leak_records" ("phone_norm", "id");--> statement-breakpoint
ALTER INDEX "leak_records_phone_idx" ATTACH PARTITION "leak_records_shared_phone_idx";--> statement-breakpoint
CREATE INDEX "leak_records_username_idx" ON ONLY "leak_records" ("username_norm", "id");--> statement-breakpoint
ALTER INDEX "leak_records_username_idx" ATTACH PARTITION "leak_records_shared_username_idx";--> statement-breakpoint
CREATE INDEX "leak_records_name_idx" ON ONLY "leak_records" USING gin ("name_tokens");--> statement-breakpoint
ALTER INDEX "leak_records_name_idx" ATTACH PARTITION "leak_records_shared_name_idx";--> statement-breakpoint
CREATE INDEX "leak_records_id_idx" ON ONLY "leak_records" ("id");--> statement-breakpoint
ALTER INDEX "leak_records_id_idx" ATTACH PARTITION "leak_records_shared_id_idx";--> statement-breakpoint
CREATE INDEX "leak_records_source_idx" ON ONLY "leak_records" ("source_id");--> statement-breakpoint
ALTER INDEX "leak_records_source_idx" ATTACH PARTITION "leak_records_shared_source_idx";--> statement-breakpoint
ALTER TABLE "leak_sources" ADD COLUMN "segment" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leak_bulk_batches" ADD CONSTRAINT "leak_bulk_batches_source_id_leak_bulk_loads_source_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."leak_bulk_loads"("source_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leak_bulk_loads" ADD CONSTRAINT "leak_bulk_loads_source_id_leak_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."leak_sources"("id") ON DELETE cascade ON UPDATE no action;