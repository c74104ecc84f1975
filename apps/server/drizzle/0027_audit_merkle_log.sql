-- The audit trail stops chaining each row under one lock (migration 0014) and is sealed instead, in
-- batches and in id order, into an RFC 6962 Merkle tree whose signed checkpoints the application
-- keeps in audit_checkpoints and hands outside the database (modules/audit/sealer.ts). An insert now
-- takes no lock but its own row's. docs/security.md ("Audit trail") describes it; keep them in step.
CREATE TABLE "audit_anchors" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tree_size" bigint NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"destinations" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_checkpoints" (
	"tree_size" bigint PRIMARY KEY NOT NULL,
	"last_id" bigint NOT NULL,
	"root_hash" text NOT NULL,
	"frontier" jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"note" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "prev_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "hash" DROP NOT NULL;
--> statement-breakpoint
-- The chain triggers go: new rows keep prev_hash and hash NULL. The rows written so far keep their
-- chain, and audit_chain_head stays where it is: the frozen end of that legacy segment.
DROP TRIGGER IF EXISTS audit_events_chain ON audit_events;--> statement-breakpoint
DROP TRIGGER IF EXISTS audit_events_chain_head ON audit_events;--> statement-breakpoint
DROP FUNCTION IF EXISTS audit_events_chain();--> statement-breakpoint
DROP FUNCTION IF EXISTS audit_events_chain_head();--> statement-breakpoint
CREATE TRIGGER audit_chain_head_frozen
  BEFORE UPDATE ON audit_chain_head
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
--> statement-breakpoint
-- A row's id: the transaction gets its xid first (pg_current_xact_id() assigns one if it has none),
-- then the id from the sequence. So an id is never taken by a transaction younger than a snapshot
-- that already saw a higher id: the sealer waits for the transactions such a snapshot saw running,
-- and then every id below its horizon is final (committed and visible, or never to be).
CREATE FUNCTION audit_next_id() RETURNS bigint
  LANGUAGE sql VOLATILE
  RETURN CASE WHEN pg_catalog.pg_current_xact_id() IS NOT NULL THEN pg_catalog.nextval('public.audit_events_id_seq') END;
--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "id" SET DEFAULT audit_next_id();--> statement-breakpoint
-- The sealer's state and the hand-overs are append-only as the trail is.
CREATE TRIGGER audit_checkpoints_no_update_delete
  BEFORE UPDATE OR DELETE ON audit_checkpoints
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
--> statement-breakpoint
CREATE TRIGGER audit_checkpoints_no_truncate
  BEFORE TRUNCATE ON audit_checkpoints
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();
--> statement-breakpoint
CREATE TRIGGER audit_anchors_no_update_delete
  BEFORE UPDATE OR DELETE ON audit_anchors
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
--> statement-breakpoint
CREATE TRIGGER audit_anchors_no_truncate
  BEFORE TRUNCATE ON audit_anchors
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();
--> statement-breakpoint
-- The roles of 0014, now with the sealer's tables: footprint_owner owns them, footprint_app may
-- INSERT and SELECT them only. Same rules as before (PGlite left alone; all or nothing).
CREATE OR REPLACE FUNCTION audit_apply_roles() RETURNS text
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
  BEGIN
    GRANT USAGE, CREATE ON SCHEMA public TO footprint_owner;
    ALTER TABLE public.audit_events OWNER TO footprint_owner;
    ALTER TABLE public.audit_chain_head OWNER TO footprint_owner;
    ALTER TABLE public.audit_checkpoints OWNER TO footprint_owner;
    ALTER TABLE public.audit_anchors OWNER TO footprint_owner;
    ALTER FUNCTION public.audit_next_id() OWNER TO footprint_owner;
    GRANT USAGE ON SCHEMA public TO footprint_app;
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO footprint_app;
    GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO footprint_app;
    REVOKE ALL ON public.audit_events, public.audit_chain_head, public.audit_checkpoints, public.audit_anchors
      FROM PUBLIC, footprint_app;
    GRANT SELECT, INSERT ON public.audit_events, public.audit_checkpoints, public.audit_anchors TO footprint_app;
    GRANT SELECT ON public.audit_chain_head TO footprint_app;
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
