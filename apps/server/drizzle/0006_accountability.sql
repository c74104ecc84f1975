ALTER TABLE "lookups" ADD COLUMN "result_purged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_login_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "lookups_result_kept_idx" ON "lookups" USING btree ("created_at") WHERE "lookups"."result" is not null;