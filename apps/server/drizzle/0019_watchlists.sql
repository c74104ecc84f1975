CREATE TABLE "watch_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"watch_id" uuid NOT NULL,
	"lookup_id" uuid,
	"run_at" timestamp with time zone NOT NULL,
	"changes" jsonb NOT NULL,
	"emailed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "watches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"query" text NOT NULL,
	"query_typed" text NOT NULL,
	"case_reference" text,
	"schedule" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_lookup_id" uuid,
	"last_snapshot" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "watches_kind_valid" CHECK ("watches"."kind" in ('tel', 'email', 'leak')),
	CONSTRAINT "watches_schedule_valid" CHECK ("watches"."schedule" in ('daily', 'weekly')),
	CONSTRAINT "watches_status_valid" CHECK ("watches"."status" in ('active', 'paused', 'stopped_no_credits'))
);
--> statement-breakpoint
ALTER TABLE "watch_events" ADD CONSTRAINT "watch_events_watch_id_watches_id_fk" FOREIGN KEY ("watch_id") REFERENCES "public"."watches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_events" ADD CONSTRAINT "watch_events_lookup_id_lookups_id_fk" FOREIGN KEY ("lookup_id") REFERENCES "public"."lookups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_last_lookup_id_lookups_id_fk" FOREIGN KEY ("last_lookup_id") REFERENCES "public"."lookups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "watch_events_watch_idx" ON "watch_events" USING btree ("watch_id","run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "watch_events_lookup_idx" ON "watch_events" USING btree ("lookup_id");--> statement-breakpoint
CREATE UNIQUE INDEX "watches_user_kind_query_idx" ON "watches" USING btree ("user_id","kind","query");--> statement-breakpoint
CREATE INDEX "watches_due_idx" ON "watches" USING btree ("next_run_at") WHERE "watches"."status" = 'active';