-- The legal basis a search states itself, outside a case or under a case without one (issue 34): printed on its
-- reports before its case's; the same kinds and checked facts as a case's legal basis.
ALTER TABLE "lookups" ADD COLUMN "legal_basis" jsonb;