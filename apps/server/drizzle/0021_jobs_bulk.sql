CREATE TABLE "bulk_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"case_reference" text,
	"stop_reason" text,
	"total" integer NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"ip" text,
	"device_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "bulk_jobs_status_valid" CHECK ("bulk_jobs"."status" in ('queued', 'running', 'paused', 'done', 'cancelled', 'stopped'))
);
--> statement-breakpoint
CREATE TABLE "bulk_rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"input" text NOT NULL,
	"query" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"lookup_id" uuid,
	"cost" integer DEFAULT 0 NOT NULL,
	"name" text,
	"emails" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"phones" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"addresses" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sources_answered" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"finished_at" timestamp with time zone,
	CONSTRAINT "bulk_rows_status_valid" CHECK ("bulk_rows"."status" in ('pending', 'success', 'no_record', 'cached', 'failed', 'insufficient_credits', 'skipped'))
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"singleton_key" text,
	"state" text DEFAULT 'created' NOT NULL,
	"retry_count" integer DEFAULT 0 NOT NULL,
	"retry_limit" integer DEFAULT 3 NOT NULL,
	"retry_delay_seconds" integer DEFAULT 2 NOT NULL,
	"start_after" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	CONSTRAINT "jobs_state_valid" CHECK ("jobs"."state" in ('created', 'active', 'completed', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_rows" ADD CONSTRAINT "bulk_rows_job_id_bulk_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."bulk_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_jobs_user_idx" ON "bulk_jobs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bulk_rows_job_line_idx" ON "bulk_rows" USING btree ("job_id","line");--> statement-breakpoint
CREATE INDEX "bulk_rows_pending_idx" ON "bulk_rows" USING btree ("job_id","line") WHERE "bulk_rows"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("name","start_after") WHERE "jobs"."state" = 'created';--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_singleton_idx" ON "jobs" USING btree ("name","singleton_key","state") WHERE "jobs"."singleton_key" is not null and "jobs"."state" in ('created', 'active');