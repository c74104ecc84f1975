CREATE TABLE "lookup_dates" (
	"lookup_id" uuid NOT NULL,
	"at" text NOT NULL,
	"label" text NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "lookup_dates_lookup_id_at_label_source_pk" PRIMARY KEY("lookup_id","at","label","source")
);
--> statement-breakpoint
ALTER TABLE "lookup_dates" ADD CONSTRAINT "lookup_dates_lookup_id_lookups_id_fk" FOREIGN KEY ("lookup_id") REFERENCES "public"."lookups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_kind_valid" CHECK ("reports"."kind" in ('lookup', 'ai', 'rc', 'upi', 'challan', 'credit_report', 'case_summary', 'case_bundle'));--> statement-breakpoint
-- Searches filed before the timeline existed have their entities read but not their dates: read
-- both again the next time their case is opened (entities are inserted idempotently).
UPDATE "case_items" SET "entities_read" = false;
