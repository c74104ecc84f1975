-- Retention by policy: a unit may keep its members' stored results for less than the deployment's
-- period (units.retention_days), and a legal hold on a case keeps its searches' results past every
-- period until it is released (cases.legal_hold_*). modules/lookup/retention.ts applies both.
ALTER TABLE "cases" ADD COLUMN "legal_hold_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "legal_hold_by" uuid;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "legal_hold_reason" text;--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "retention_days" integer;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_legal_hold_by_users_id_fk" FOREIGN KEY ("legal_hold_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_retention_days_valid" CHECK ("units"."retention_days" is null or "units"."retention_days" between 1 and 3650);