-- The audit trail becomes tamper-evident (a hash chain) and, on PostgreSQL, owned by a role the
-- application does not use. docs/security.md ("Audit trail") describes both; keep them in step.
CREATE TABLE "audit_chain_head" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"last_id" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "audit_chain_head_single_row" CHECK ("audit_chain_head"."id" = 1)
);
--> statement-breakpoint
-- Added empty, filled for the existing rows below, then made NOT NULL.
ALTER TABLE "audit_events" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "hash" text;--> statement-breakpoint
-- One field of the canonical content: its UTF-8 byte length, ':' and the text; '~' for NULL. The
-- length prefix makes the concatenation unambiguous whatever the fields contain.
CREATE FUNCTION audit_chain_field(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN value IS NULL THEN '~' ELSE pg_catalog.octet_length(value)::text || ':' || value END;
--> statement-breakpoint
-- A row's hash: lower-case hex SHA-256 of the UTF-8 bytes of prev_hash followed by the canonical
-- content, the fields in this fixed order: id, at (UTC, 'YYYY-MM-DDTHH:MM:SS.ffffffZ'), user_id,
-- actor_email, ip, device_id, action, target, cost, outcome, case_reference, details (jsonb's text).
-- modules/audit/chain.ts computes the same in Node; both must change together (a new version).
CREATE FUNCTION audit_chain_hash(prev text, e audit_events) RETURNS text
  LANGUAGE sql STABLE PARALLEL SAFE
  RETURN pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(
    prev
    || public.audit_chain_field(e.id::text)
    || public.audit_chain_field(pg_catalog.to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
    || public.audit_chain_field(e.user_id::text)
    || public.audit_chain_field(e.actor_email)
    || public.audit_chain_field(e.ip)
    || public.audit_chain_field(e.device_id)
    || public.audit_chain_field(e.action)
    || public.audit_chain_field(e.target)
    || public.audit_chain_field(e.cost::text)
    || public.audit_chain_field(e.outcome)
    || public.audit_chain_field(e.case_reference)
    || public.audit_chain_field(e.details::text),
    'UTF8')), 'hex');
--> statement-breakpoint
-- The rows written so far get their chain, oldest first (the append-only trigger is lifted for this
-- one transaction only; the migration holds the table's lock throughout).
ALTER TABLE "audit_events" DISABLE TRIGGER audit_events_no_update_delete;--> statement-breakpoint
DO $$
DECLARE
  e audit_events;
  prev text := pg_catalog.repeat('0', 64);
  last bigint := 0;
BEGIN
  FOR e IN SELECT * FROM audit_events ORDER BY id LOOP
    UPDATE audit_events SET prev_hash = prev, hash = audit_chain_hash(prev, e) WHERE id = e.id;
    prev := audit_chain_hash(prev, e);
    last := e.id;
  END LOOP;
  INSERT INTO audit_chain_head (id, last_id, hash) VALUES (1, last, prev);
END;
$$;
--> statement-breakpoint
ALTER TABLE "audit_events" ENABLE TRIGGER audit_events_no_update_delete;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "prev_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "hash" SET NOT NULL;--> statement-breakpoint
-- Each new row, whoever inserts it: lock the chain head (concurrent writers queue here until the
-- holder commits, so chain order is commit order), make sure the id is above the last chained one
-- (else take a new one from the sequence under the lock: id order is chain order), chain to the previous row and compute the hash. The previous row is
-- one this statement wrote before (the head moves once per statement), else the head itself: rows
-- cut from the end of the table leave the next row pointing at a hash no row has. Whatever the
-- insert supplied for id, prev_hash or hash is overwritten. SECURITY DEFINER: the app's role needs
-- no right on the head. Under REPEATABLE READ a concurrent writer makes the lock fail with a
-- serialization error instead of chaining to a row the snapshot cannot see.
CREATE FUNCTION audit_events_chain() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  last_id bigint;
  prev text;
  written_id bigint;
  written text;
BEGIN
  SELECT h.last_id, h.hash INTO last_id, prev FROM public.audit_chain_head h WHERE h.id = 1 FOR UPDATE;
  SELECT a.id, a.hash INTO written_id, written FROM public.audit_events a WHERE a.id > last_id
    ORDER BY a.id DESC LIMIT 1;
  last_id := coalesce(written_id, last_id);
  -- The id the insert came with stays when it follows the chain and the sequence issued it.
  IF NEW.id IS NULL OR NEW.id <= last_id OR NEW.id > (SELECT s.last_value FROM public.audit_events_id_seq s) THEN
    NEW.id := nextval('public.audit_events_id_seq');
  END IF;
  NEW.prev_hash := coalesce(written, prev);
  NEW.hash := public.audit_chain_hash(NEW.prev_hash, NEW);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
-- Once per statement (a group-committed settle writes hundreds of rows in one), the head moves to
-- the last row it wrote. The lock is already held by the row trigger; a statement that wrote no row
-- changes nothing (and the head never moves back).
CREATE FUNCTION audit_events_chain_head() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  UPDATE public.audit_chain_head h SET last_id = t.id, hash = t.hash
  FROM (SELECT a.id, a.hash FROM public.audit_events a ORDER BY a.id DESC LIMIT 1) t
  WHERE h.id = 1 AND t.id > h.last_id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_events_chain
  BEFORE INSERT ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_chain();
--> statement-breakpoint
CREATE TRIGGER audit_events_chain_head
  AFTER INSERT ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_chain_head();
--> statement-breakpoint
-- The chain head may never be changed by hand either.
CREATE TRIGGER audit_chain_head_no_delete
  BEFORE DELETE OR TRUNCATE ON audit_chain_head
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();
--> statement-breakpoint
-- Roles (PostgreSQL only). The table, its chain head and the chain functions belong to
-- footprint_owner; the application connects as a member of footprint_app, which may read and write
-- every other table but only INSERT and SELECT the audit trail: no UPDATE, DELETE or TRUNCATE, and
-- as a non-owner no ALTER TABLE (so no DISABLE TRIGGER). The migrating role (MIGRATION_DATABASE_URL)
-- must be a superuser or be (a member of) footprint_owner; without the right to create the roles the
-- function changes nothing and says so. An operator who sets the roles up later runs
-- `SELECT audit_apply_roles();` as the schema's owner (docs/security.md). PGlite is one embedded user
-- in one process: roles would protect nothing there, so it is left alone (the hash chain is its
-- protection).
CREATE FUNCTION audit_apply_roles() RETURNS text
  LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
  may_create boolean;
BEGIN
  IF pg_catalog.version() LIKE '%PGlite%' THEN
    RETURN 'PGlite: one embedded user, roles left alone';
  END IF;
  SELECT rolsuper OR rolcreaterole INTO may_create FROM pg_catalog.pg_roles WHERE rolname = current_user;
  IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'footprint_owner')
     OR NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'footprint_app') THEN
    IF NOT may_create THEN
      RAISE NOTICE 'audit trail: roles footprint_owner/footprint_app missing and % may not create them; the audit trail stays owned by %', current_user, current_user;
      RETURN 'roles missing: nothing changed';
    END IF;
    -- Roles are shared by every database of the server: another database may be creating them now.
    BEGIN
      CREATE ROLE footprint_owner NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
    BEGIN
      CREATE ROLE footprint_app NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END;
  END IF;
  IF NOT pg_catalog.pg_has_role(current_user, 'footprint_owner', 'USAGE') THEN
    BEGIN
      EXECUTE pg_catalog.format('GRANT footprint_owner TO %I', current_user);
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'audit trail: % is not a member of footprint_owner and may not become one; the audit trail stays owned by %', current_user, current_user;
      RETURN 'not a member of footprint_owner: nothing changed';
    END;
  END IF;
  -- All or nothing: a right missing half-way leaves everything as it was, with a NOTICE.
  BEGIN
    -- A new owner needs CREATE on the table's schema (on PostgreSQL 15+ only the database owner has it).
    GRANT USAGE, CREATE ON SCHEMA public TO footprint_owner;
    ALTER TABLE public.audit_events OWNER TO footprint_owner;
    ALTER TABLE public.audit_chain_head OWNER TO footprint_owner;
    ALTER FUNCTION public.audit_events_chain() OWNER TO footprint_owner;
    ALTER FUNCTION public.audit_events_chain_head() OWNER TO footprint_owner;
    GRANT USAGE ON SCHEMA public TO footprint_app;
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO footprint_app;
    GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO footprint_app;
    REVOKE ALL ON public.audit_events, public.audit_chain_head FROM PUBLIC, footprint_app;
    GRANT SELECT, INSERT ON public.audit_events TO footprint_app;
    GRANT SELECT ON public.audit_chain_head TO footprint_app;
    -- Tables and sequences later migrations create (as this role) are open to the app the same way.
    ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO footprint_app;
    ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO footprint_app;
  EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'audit trail: % may not hand the trail to footprint_owner (%); nothing changed', current_user, SQLERRM;
    RETURN 'insufficient privilege: nothing changed';
  END;
  RETURN 'audit_events owned by footprint_owner; footprint_app may INSERT and SELECT it';
END;
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION audit_apply_roles() FROM PUBLIC;--> statement-breakpoint
SELECT audit_apply_roles();
