-- A bulk job of more rows than the admin's approval_bulk_rows waits for a supervisor's approval (issue 34):
-- its status is awaiting_approval until then, not_approved when its request is rejected or expires.
ALTER TABLE "bulk_jobs" DROP CONSTRAINT "bulk_jobs_status_valid";--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD COLUMN "approval_id" uuid;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_status_valid" CHECK ("bulk_jobs"."status" in ('awaiting_approval', 'queued', 'running', 'paused', 'done', 'cancelled', 'stopped', 'not_approved'));