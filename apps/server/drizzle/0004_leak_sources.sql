CREATE TABLE "leak_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"breach_date" date,
	"description" text,
	"record_count" bigint DEFAULT 0 NOT NULL,
	"imported_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leak_sources_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE SEQUENCE "leak_records_id_seq" AS bigint;
--> statement-breakpoint
-- Partitioned by a hash of the record's key (docs/scaling.md): the same DDL maps onto a Citus
-- cluster with record_hash as the distribution column. Unique keys must include the partition key,
-- so the idempotency key (source_id, record_hash) does.
CREATE TABLE "leak_records" (
	"id" bigint DEFAULT nextval('leak_records_id_seq') NOT NULL,
	"source_id" uuid NOT NULL REFERENCES "leak_sources"("id") ON DELETE CASCADE,
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
	PRIMARY KEY ("record_hash", "source_id")
) PARTITION BY HASH ("record_hash");
--> statement-breakpoint
CREATE TABLE "leak_records_p0" PARTITION OF "leak_records" FOR VALUES WITH (MODULUS 8, REMAINDER 0);
--> statement-breakpoint
CREATE TABLE "leak_records_p1" PARTITION OF "leak_records" FOR VALUES WITH (MODULUS 8, REMAINDER 1);
--> statement-breakpoint
CREATE TABLE "leak_records_p2" PARTITION OF "leak_records" FOR VALUES WITH (MODULUS 8, REMAINDER 2);
--> statement-breakpoint
CREATE TABLE "leak_records_p3" PARTITION OF "leak_records" FOR VALUES WITH (MODULUS 8, REMAINDER 3);
--> statement-breakpoint
CREATE TABLE "leak_records_p4" PARTITION OF "leak_records" FOR VALUES WITH (MODULUS 8, REMAINDER 4);
--> statement-breakpoint
CREATE TABLE "leak_records_p5" PARTITION OF "leak_records" FOR VALUES WITH (MODULUS 8, REMAINDER 5);
--> statement-breakpoint
CREATE TABLE "leak_records_p6" PARTITION OF "leak_records" FOR VALUES WITH (MODULUS 8, REMAINDER 6);
--> statement-breakpoint
CREATE TABLE "leak_records_p7" PARTITION OF "leak_records" FOR VALUES WITH (MODULUS 8, REMAINDER 7);
--> statement-breakpoint
-- One index per query shape (proven with EXPLAIN in docs/scaling.md); each pairs the key with id so
-- that a page of matches comes out of the index already in order.
CREATE INDEX "leak_records_email_idx" ON "leak_records" ("email_norm", "id");
--> statement-breakpoint
CREATE INDEX "leak_records_phone_idx" ON "leak_records" ("phone_norm", "id");
--> statement-breakpoint
CREATE INDEX "leak_records_username_idx" ON "leak_records" ("username_norm", "id");
--> statement-breakpoint
CREATE INDEX "leak_records_name_idx" ON "leak_records" USING gin ("name_tokens");
--> statement-breakpoint
CREATE INDEX "leak_records_id_idx" ON "leak_records" ("id");
--> statement-breakpoint
CREATE INDEX "leak_records_source_idx" ON "leak_records" ("source_id");
