ALTER TABLE "users" ADD COLUMN "organisation" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "designation" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "identity_reference" text;