-- Sensitive searches held until a supervisor of the requester approves them (issue 34, modules/approvals).
CREATE TABLE "search_approvals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"query" text NOT NULL,
	"query_typed" text NOT NULL,
	"fresh" boolean DEFAULT false NOT NULL,
	"case_reference" text,
	"legal_basis" text,
	"cost" integer NOT NULL,
	"ip" text,
	"device_id" text,
	"api_key_id" uuid,
	"input" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decider_id" uuid,
	"decided_at" timestamp with time zone,
	"note" text,
	"lookup_id" uuid,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "search_approvals_status_valid" CHECK ("search_approvals"."status" in ('pending', 'approved', 'rejected', 'expired', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "search_approvals" ADD CONSTRAINT "search_approvals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_approvals" ADD CONSTRAINT "search_approvals_decider_id_users_id_fk" FOREIGN KEY ("decider_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_approvals_user_idx" ON "search_approvals" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "search_approvals_pending_idx" ON "search_approvals" USING btree ("expires_at") WHERE "search_approvals"."status" = 'pending';