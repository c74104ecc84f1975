-- Credit pools (issue 34): a unit holds credits; each member may draw up to a monthly allowance from
-- them, and the ledger (credit_entries.unit_id) says which pool paid. footprint_charge_lookups is the
-- one writer of a search's charge: it picks the payer of each charge in queue order, the pool within
-- the allowance first, else the searcher's own balance (modules/credits/service.ts, chargeLookups).
ALTER TABLE "credit_entries" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD COLUMN "unit_id" uuid;--> statement-breakpoint
ALTER TABLE "unit_members" ADD COLUMN "monthly_allowance" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "unit_members" ADD COLUMN "allowance_used" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "unit_members" ADD COLUMN "allowance_month" date;--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "credits" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_entries_unit_idx" ON "credit_entries" USING btree ("unit_id","id") WHERE "credit_entries"."unit_id" is not null;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_has_holder" CHECK ("credit_entries"."user_id" is not null or "credit_entries"."unit_id" is not null);--> statement-breakpoint
ALTER TABLE "unit_members" ADD CONSTRAINT "unit_members_allowance_valid" CHECK ("unit_members"."monthly_allowance" between 0 and 100000000 and "unit_members"."allowance_used" >= 0);--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_credits_non_negative" CHECK ("units"."credits" >= 0);--> statement-breakpoint
CREATE FUNCTION footprint_charge_lookups(
  p_ids uuid[], p_assigned boolean[], p_users uuid[], p_costs integer[], p_kinds text[], p_queries text[],
  p_typed text[], p_ips text[], p_devices text[], p_cases text[], p_keys uuid[], p_at timestamptz[]
) RETURNS TABLE (idx integer, lookup_id uuid, credits integer, unit_id uuid, pool_credits integer)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  v_month date := date_trunc('month', p_at[1] AT TIME ZONE 'UTC')::date;
BEGIN
  -- One lock order for every writer: pools (units) by id, then users by id, then memberships. Each
  -- statement below then reads what the others committed before it got its locks.
  PERFORM 1 FROM units u
    WHERE u.id IN (SELECT m.unit_id FROM unit_members m WHERE m.user_id = ANY (p_users) AND m.monthly_allowance > 0)
    ORDER BY u.id FOR UPDATE;
  PERFORM 1 FROM users u WHERE u.id = ANY (p_users) ORDER BY u.id FOR UPDATE;
  PERFORM 1 FROM unit_members m WHERE m.user_id = ANY (p_users) AND m.monthly_allowance > 0
    ORDER BY m.unit_id, m.user_id FOR UPDATE;
  RETURN QUERY
  WITH req AS (
    SELECT (r.ord - 1)::int AS idx, r.lookup_id, r.assigned, r.user_id, r.cost, r.kind, r.query, r.query_typed,
      r.ip, r.device_id, r.case_reference, r.api_key_id, r.at
    FROM unnest(p_ids, p_assigned, p_users, p_costs, p_kinds, p_queries, p_typed, p_ips, p_devices, p_cases, p_keys, p_at)
      WITH ORDINALITY AS r(lookup_id, assigned, user_id, cost, kind, query, query_typed, ip, device_id, case_reference, api_key_id, at, ord)
  ),
  -- A pre-assigned id already in use, or given twice, charges nothing.
  fresh AS (
    SELECT r.idx, r.user_id, r.cost FROM req r
    WHERE NOT (r.assigned AND EXISTS (SELECT 1 FROM lookups l WHERE l.id = r.lookup_id))
      AND NOT EXISTS (SELECT 1 FROM req e WHERE e.lookup_id = r.lookup_id AND e.idx < r.idx)
  ),
  -- Each searcher's pool: the membership with an allowance (the largest; ties by unit id).
  payer AS (
    SELECT DISTINCT ON (m.user_id) m.user_id, m.unit_id, m.monthly_allowance,
      CASE WHEN m.allowance_month = v_month THEN m.allowance_used ELSE 0 END AS used, un.credits AS pool
    FROM unit_members m JOIN units un ON un.id = m.unit_id
    WHERE m.user_id IN (SELECT r.user_id FROM req r) AND m.monthly_allowance > 0
    ORDER BY m.user_id, m.monthly_allowance DESC, m.unit_id
  ),
  -- In queue order, a member's charges fit their allowance up to the first that does not...
  allowed AS (
    SELECT f.idx, f.user_id, f.cost, p.unit_id, p.pool,
      p.used + sum(f.cost) OVER (PARTITION BY f.user_id ORDER BY f.idx ROWS UNBOUNDED PRECEDING) <= p.monthly_allowance AS fits
    FROM fresh f JOIN payer p ON p.user_id = f.user_id
    WHERE f.cost > 0
  ),
  -- ...and those fit the pool, across its members, up to the first that does not.
  pooled AS (
    SELECT s.idx, s.user_id, s.unit_id, s.cost, s.pool_spent, s.pool FROM (
      SELECT a.*, sum(a.cost) OVER (PARTITION BY a.unit_id ORDER BY a.idx ROWS UNBOUNDED PRECEDING) AS pool_spent
      FROM allowed a WHERE a.fits
    ) s WHERE s.pool_spent <= s.pool
  ),
  -- The rest are paid from the searcher's own balance, by the same rule.
  personal AS (
    SELECT s.idx, s.user_id, s.spent, s.balance FROM (
      SELECT f.idx, f.user_id, u.credits AS balance,
        sum(f.cost) OVER (PARTITION BY f.user_id ORDER BY f.idx ROWS UNBOUNDED PRECEDING) AS spent
      FROM fresh f JOIN users u ON u.id = f.user_id
      WHERE NOT EXISTS (SELECT 1 FROM pooled p WHERE p.idx = f.idx)
    ) s WHERE s.spent <= s.balance
  ),
  debit AS (
    UPDATE users u SET credits = u.credits - t.total, updated_at = t.at
    FROM (SELECT p.user_id, max(p.spent) AS total, max(r.at) AS at
          FROM personal p JOIN req r ON r.idx = p.idx GROUP BY p.user_id) t
    WHERE u.id = t.user_id AND t.total > 0
    RETURNING u.id
  ),
  pool_debit AS (
    UPDATE units un SET credits = un.credits - t.total
    FROM (SELECT p.unit_id, max(p.pool_spent) AS total FROM pooled p GROUP BY p.unit_id) t
    WHERE un.id = t.unit_id
    RETURNING un.id
  ),
  allowance_debit AS (
    UPDATE unit_members m
    SET allowance_used = CASE WHEN m.allowance_month = v_month THEN m.allowance_used ELSE 0 END + t.total,
      allowance_month = v_month
    FROM (SELECT p.unit_id, p.user_id, sum(p.cost) AS total FROM pooled p GROUP BY p.unit_id, p.user_id) t
    WHERE m.unit_id = t.unit_id AND m.user_id = t.user_id
    RETURNING m.user_id
  ),
  -- (The writes above run to completion whether or not the answer reads them.)
  -- Each charge made, with its payer and the payer's balance after it.
  made AS (
    SELECT r.*, NULL::uuid AS pool_id, (p.balance - p.spent)::int AS balance_after, (p.balance - p.spent)::int AS own_after
    FROM req r JOIN personal p ON p.idx = r.idx
    UNION ALL
    SELECT r.*, p.unit_id, (p.pool - p.pool_spent)::int,
      (u.credits - coalesce((SELECT max(o.spent) FROM personal o WHERE o.user_id = r.user_id AND o.idx < r.idx), 0))::int
    FROM req r JOIN pooled p ON p.idx = r.idx JOIN users u ON u.id = r.user_id
  ),
  ins AS (
    INSERT INTO lookups (id, user_id, kind, query, query_typed, cost, ip, device_id, case_reference, api_key_id, created_at)
    SELECT m.lookup_id, m.user_id, m.kind, m.query, m.query_typed, m.cost, m.ip, m.device_id, m.case_reference, m.api_key_id, m.at
    FROM made m ORDER BY m.idx
    RETURNING id
  ),
  entry AS (
    INSERT INTO credit_entries (user_id, unit_id, delta, balance_after, kind, reason, lookup_id, created_at)
    SELECT m.user_id, m.pool_id, -m.cost, m.balance_after, 'charge', m.kind || ' lookup', m.lookup_id, m.at
    FROM made m WHERE m.cost > 0 ORDER BY m.idx
    RETURNING id
  )
  SELECT m.idx, m.lookup_id, m.own_after, m.pool_id, CASE WHEN m.pool_id IS NULL THEN NULL ELSE m.balance_after END
  FROM made m;
END
$$;
