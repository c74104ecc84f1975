-- Usernames in bulk lists and watchlists (issue 35): a watch may be of the username kind, and a bulk row keeps the accounts its username lookup found.
ALTER TABLE "watches" DROP CONSTRAINT "watches_kind_valid";--> statement-breakpoint
ALTER TABLE "bulk_rows" ADD COLUMN "accounts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "watches" ADD CONSTRAINT "watches_kind_valid" CHECK ("watches"."kind" in ('tel', 'email', 'username', 'leak'));