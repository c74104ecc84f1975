-- Self-registered accounts can wait for an admin's approval ('pending') or be refused ('rejected');
-- existing rows keep their status (active or disabled).
ALTER TABLE "users" DROP CONSTRAINT "users_status_valid";--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_status_valid" CHECK ("users"."status" in ('active', 'disabled', 'pending', 'rejected'));
