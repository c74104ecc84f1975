-- The entities of phone and e-mail lookups are now read from their analysis (the merged values the
-- results page shows), not from the profile's raw entries. Forget the old reading: each case reads its
-- searches' entities again the next time it is opened (case_items.entities_read).
DELETE FROM "lookup_entities" WHERE "lookup_id" IN (SELECT "id" FROM "lookups" WHERE "kind" IN ('tel', 'email'));
--> statement-breakpoint
UPDATE "case_items" SET "entities_read" = false WHERE "lookup_id" IN (SELECT "id" FROM "lookups" WHERE "kind" IN ('tel', 'email'));
