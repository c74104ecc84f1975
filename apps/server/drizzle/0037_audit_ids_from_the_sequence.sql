-- An audit row's id is always drawn from the sequence, by audit_next_id() (migration 0027), whatever the
-- INSERT says. Before, the column's default drew it, and an INSERT that named an id of its own (a gap, or
-- one below the sealer's horizon) was taken as written: a row back-dated into the sealed part of the
-- trail, which the sealer would never seal. A BEFORE INSERT trigger owned by the trail's owner now sets
-- every new row's id; the column has no default left, so a row drawn through the default cannot skip an
-- id either. The application's role cannot drop or disable the trigger (it owns nothing: migration 0014).
CREATE FUNCTION audit_events_assign_id() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  NEW.id := audit_next_id();
  RETURN NEW;
END;
$$;
--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "id" DROP DEFAULT;--> statement-breakpoint
CREATE TRIGGER audit_events_assign_id
  BEFORE INSERT ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_assign_id();
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'footprint_owner')
     AND (SELECT pg_catalog.pg_get_userbyid(relowner) FROM pg_catalog.pg_class WHERE oid = 'public.audit_events'::regclass) = 'footprint_owner' THEN
    ALTER FUNCTION public.audit_events_assign_id() OWNER TO footprint_owner;
  END IF;
END $$;
