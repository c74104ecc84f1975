-- The username catalogue's self-check (issue 35, deliverable 4): its runs, each site's result per run (kept 90 days) and each site's standing, whose failing_since quarantines it from the lookups.
CREATE TABLE "site_health" (
	"site_id" text PRIMARY KEY NOT NULL,
	"failing_since" timestamp with time zone,
	"last_checked_at" timestamp with time zone,
	"last_passed_at" timestamp with time zone,
	"last_outcome" text,
	"last_reason" text
);
--> statement-breakpoint
CREATE TABLE "site_self_check_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trigger" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"sites" integer DEFAULT 0 NOT NULL,
	"passed" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"blocked" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "site_self_check_runs_trigger_valid" CHECK ("site_self_check_runs"."trigger" in ('schedule', 'admin'))
);
--> statement-breakpoint
CREATE TABLE "site_self_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"site_id" text NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"claimed_state" text,
	"unclaimed_state" text,
	"outcome" text NOT NULL,
	"reason" text,
	CONSTRAINT "site_self_checks_outcome_valid" CHECK ("site_self_checks"."outcome" in ('passed', 'failed', 'blocked', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "site_self_checks" ADD CONSTRAINT "site_self_checks_run_id_site_self_check_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."site_self_check_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_self_check_runs_started_idx" ON "site_self_check_runs" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "site_self_checks_site_idx" ON "site_self_checks" USING btree ("site_id","checked_at");--> statement-breakpoint
CREATE INDEX "site_self_checks_checked_idx" ON "site_self_checks" USING btree ("checked_at");--> statement-breakpoint
CREATE INDEX "site_self_checks_run_idx" ON "site_self_checks" USING btree ("run_id");