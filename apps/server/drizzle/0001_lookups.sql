CREATE TABLE "lookups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"query" text NOT NULL,
	"cost" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"sources_answered" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"source_errors" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"result" jsonb,
	"sandbox" boolean DEFAULT false NOT NULL,
	"cache_of" uuid,
	"case_reference" text,
	"ip" text,
	"device_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "lookups_cost_non_negative" CHECK ("lookups"."cost" >= 0),
	CONSTRAINT "lookups_status_valid" CHECK ("lookups"."status" in ('pending', 'complete', 'refunded'))
);
--> statement-breakpoint
ALTER TABLE "lookups" ADD CONSTRAINT "lookups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lookups_user_kind_query_idx" ON "lookups" USING btree ("user_id","kind","query","created_at");--> statement-breakpoint
CREATE INDEX "lookups_created_idx" ON "lookups" USING btree ("created_at");