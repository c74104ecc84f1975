-- Bulk imports would otherwise leave new name tokens in GIN's pending list, which every name
-- search scans linearly until the next vacuum: keep the index always merged instead.
ALTER INDEX "leak_records_p0_name_tokens_idx" SET (fastupdate = off);
--> statement-breakpoint
ALTER INDEX "leak_records_p1_name_tokens_idx" SET (fastupdate = off);
--> statement-breakpoint
ALTER INDEX "leak_records_p2_name_tokens_idx" SET (fastupdate = off);
--> statement-breakpoint
ALTER INDEX "leak_records_p3_name_tokens_idx" SET (fastupdate = off);
--> statement-breakpoint
ALTER INDEX "leak_records_p4_name_tokens_idx" SET (fastupdate = off);
--> statement-breakpoint
ALTER INDEX "leak_records_p5_name_tokens_idx" SET (fastupdate = off);
--> statement-breakpoint
ALTER INDEX "leak_records_p6_name_tokens_idx" SET (fastupdate = off);
--> statement-breakpoint
ALTER INDEX "leak_records_p7_name_tokens_idx" SET (fastupdate = off);
