-- Sampled review (modules/reviews): the searches drawn for their searchers' supervisors to review after
-- the fact, and each one's review. Kept whatever the retention: the purge removes results, not these.
CREATE TABLE "review_samples" (
	"lookup_id" uuid PRIMARY KEY NOT NULL,
	"sampled_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verdict" text,
	"note" text,
	"reviewer_id" uuid,
	"reviewed_at" timestamp with time zone,
	CONSTRAINT "review_samples_verdict_valid" CHECK ("review_samples"."verdict" is null or "review_samples"."verdict" in ('in_order', 'questioned')),
	CONSTRAINT "review_samples_reviewed_whole" CHECK (("review_samples"."verdict" is null) = ("review_samples"."reviewed_at" is null))
);
--> statement-breakpoint
ALTER TABLE "review_samples" ADD CONSTRAINT "review_samples_lookup_id_lookups_id_fk" FOREIGN KEY ("lookup_id") REFERENCES "public"."lookups"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_samples" ADD CONSTRAINT "review_samples_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_samples_sampled_idx" ON "review_samples" USING btree ("sampled_at");