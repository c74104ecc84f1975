ALTER TABLE "lookups" DROP CONSTRAINT "lookups_status_valid";--> statement-breakpoint
ALTER TABLE "lookups" ADD COLUMN "query_typed" text;--> statement-breakpoint
-- Rows from before the typed query was kept: the normalized query is the best record of what was searched.
UPDATE "lookups" SET "query_typed" = "query" WHERE "query_typed" IS NULL;--> statement-breakpoint
ALTER TABLE "lookups" ALTER COLUMN "query_typed" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_outcome_valid" CHECK ("audit_events"."outcome" in ('success', 'no_record', 'failure', 'denied'));--> statement-breakpoint
ALTER TABLE "lookups" ADD CONSTRAINT "lookups_status_valid" CHECK ("lookups"."status" in ('pending', 'complete', 'no_record', 'refunded'));
