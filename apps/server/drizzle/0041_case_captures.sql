-- Web pages captured into a case (issue 36): the captures, their artefacts and each case's chain of signed manifests.
CREATE TABLE "capture_chain" (
	"case_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"capture_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"manifest" text NOT NULL,
	"signature" text NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "capture_chain_case_id_sequence_pk" PRIMARY KEY("case_id","sequence"),
	CONSTRAINT "capture_chain_kind_valid" CHECK ("capture_chain"."kind" in ('capture', 'removal'))
);
--> statement-breakpoint
CREATE TABLE "capture_files" (
	"capture_id" uuid NOT NULL,
	"name" text NOT NULL,
	"media_type" text NOT NULL,
	"sha256" text NOT NULL,
	"bytes" integer NOT NULL,
	"body" "bytea",
	CONSTRAINT "capture_files_capture_id_name_pk" PRIMARY KEY("capture_id","name")
);
--> statement-breakpoint
CREATE TABLE "case_captures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"requested_by" uuid NOT NULL,
	"url" text NOT NULL,
	"lookup_id" uuid,
	"status" text DEFAULT 'queued' NOT NULL,
	"failure" text,
	"started_at" timestamp with time zone,
	"captured_at" timestamp with time zone,
	"final_url" text,
	"title" text,
	"http_status" integer,
	"truncated" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"removed_at" timestamp with time zone,
	"removed_by" uuid,
	"removal_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_captures_status_valid" CHECK ("case_captures"."status" in ('queued', 'running', 'done', 'failed', 'removed'))
);
--> statement-breakpoint
ALTER TABLE "capture_chain" ADD CONSTRAINT "capture_chain_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capture_chain" ADD CONSTRAINT "capture_chain_capture_id_case_captures_id_fk" FOREIGN KEY ("capture_id") REFERENCES "public"."case_captures"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capture_files" ADD CONSTRAINT "capture_files_capture_id_case_captures_id_fk" FOREIGN KEY ("capture_id") REFERENCES "public"."case_captures"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_captures" ADD CONSTRAINT "case_captures_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_captures" ADD CONSTRAINT "case_captures_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_captures" ADD CONSTRAINT "case_captures_removed_by_users_id_fk" FOREIGN KEY ("removed_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "capture_chain_sha256_idx" ON "capture_chain" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "capture_chain_capture_idx" ON "capture_chain" USING btree ("capture_id");--> statement-breakpoint
CREATE INDEX "case_captures_case_idx" ON "case_captures" USING btree ("case_id","created_at");