-- Units (issue 34): the tree an agency is organised in, who belongs to each unit and as what, and the
-- units a case is shared with. docs/capabilities.md ("Units") describes them; keep them in step.
CREATE TABLE "case_units" (
	"case_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"shared_by" uuid,
	"shared_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_units_case_id_unit_id_pk" PRIMARY KEY("case_id","unit_id")
);
--> statement-breakpoint
CREATE TABLE "unit_members" (
	"unit_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"added_by" uuid,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "unit_members_unit_id_user_id_pk" PRIMARY KEY("unit_id","user_id"),
	CONSTRAINT "unit_members_role_valid" CHECK ("unit_members"."role" in ('investigator', 'supervisor', 'unit_admin'))
);
--> statement-breakpoint
CREATE TABLE "unit_paths" (
	"ancestor_id" uuid NOT NULL,
	"descendant_id" uuid NOT NULL,
	"distance" integer NOT NULL,
	CONSTRAINT "unit_paths_ancestor_id_descendant_id_pk" PRIMARY KEY("ancestor_id","descendant_id")
);
--> statement-breakpoint
CREATE TABLE "units" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"parent_id" uuid,
	"name" text NOT NULL,
	"depth" integer DEFAULT 0 NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "case_units" ADD CONSTRAINT "case_units_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_units" ADD CONSTRAINT "case_units_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_units" ADD CONSTRAINT "case_units_shared_by_users_id_fk" FOREIGN KEY ("shared_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_members" ADD CONSTRAINT "unit_members_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_members" ADD CONSTRAINT "unit_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_members" ADD CONSTRAINT "unit_members_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_paths" ADD CONSTRAINT "unit_paths_ancestor_id_units_id_fk" FOREIGN KEY ("ancestor_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_paths" ADD CONSTRAINT "unit_paths_descendant_id_units_id_fk" FOREIGN KEY ("descendant_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_parent_id_units_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."units"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_units_unit_idx" ON "case_units" USING btree ("unit_id");--> statement-breakpoint
CREATE INDEX "unit_members_user_idx" ON "unit_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "unit_paths_descendant_idx" ON "unit_paths" USING btree ("descendant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "units_sibling_name_idx" ON "units" USING btree (coalesce("parent_id", '00000000-0000-0000-0000-000000000000'::uuid),lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "units_one_default_idx" ON "units" USING btree ("is_default") WHERE "units"."is_default";--> statement-breakpoint
CREATE INDEX "units_parent_idx" ON "units" USING btree ("parent_id");--> statement-breakpoint
-- The closure of the tree: a unit and each of its ancestors, with the distance between them. The
-- triggers below keep it, and each unit's depth, whatever writes `units`; a move under a unit of the
-- moved unit's own subtree is refused here too (the service refuses it first, with its message).
CREATE FUNCTION units_place() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.parent_id IS NULL THEN
    NEW.depth := 0;
  ELSE
    IF TG_OP = 'UPDATE' AND EXISTS (
      SELECT 1 FROM unit_paths WHERE ancestor_id = NEW.id AND descendant_id = NEW.parent_id
    ) THEN
      RAISE EXCEPTION 'a unit cannot be moved under itself or a unit below it' USING ERRCODE = 'check_violation';
    END IF;
    SELECT depth + 1 INTO STRICT NEW.depth FROM units WHERE id = NEW.parent_id;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER units_place BEFORE INSERT OR UPDATE OF parent_id ON units
  FOR EACH ROW EXECUTE FUNCTION units_place();--> statement-breakpoint
CREATE FUNCTION units_paths() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO unit_paths (ancestor_id, descendant_id, distance) VALUES (NEW.id, NEW.id, 0);
    INSERT INTO unit_paths (ancestor_id, descendant_id, distance)
      SELECT ancestor_id, NEW.id, distance + 1 FROM unit_paths WHERE descendant_id = NEW.parent_id;
    RETURN NULL;
  END IF;
  IF NEW.parent_id IS NOT DISTINCT FROM OLD.parent_id THEN
    RETURN NULL;
  END IF;
  -- The moved subtree leaves its old ancestors and joins the new parent's.
  DELETE FROM unit_paths p
    WHERE p.descendant_id IN (SELECT descendant_id FROM unit_paths WHERE ancestor_id = NEW.id)
      AND p.ancestor_id NOT IN (SELECT descendant_id FROM unit_paths WHERE ancestor_id = NEW.id);
  INSERT INTO unit_paths (ancestor_id, descendant_id, distance)
    SELECT a.ancestor_id, d.descendant_id, a.distance + d.distance + 1
      FROM unit_paths a, unit_paths d
      WHERE a.descendant_id = NEW.parent_id AND d.ancestor_id = NEW.id;
  UPDATE units u SET depth = NEW.depth + p.distance
    FROM unit_paths p
    WHERE p.ancestor_id = NEW.id AND p.descendant_id = u.id AND p.distance > 0;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER units_paths AFTER INSERT OR UPDATE OF parent_id ON units
  FOR EACH ROW EXECUTE FUNCTION units_paths();--> statement-breakpoint
-- Every account from before units joins the default unit as an investigator: nothing it held
-- changes hands, and nobody sees more than before until an admin names supervisors.
INSERT INTO units (name, is_default) VALUES ('Default unit', true);--> statement-breakpoint
INSERT INTO unit_members (unit_id, user_id, role)
  SELECT units.id, users.id, 'investigator' FROM units, users WHERE units.is_default;
--> statement-breakpoint
-- A new account joins the default unit as an investigator, whichever code made it (sign-up, the
-- admin console, the CLI, the seed): no account is ever outside the tree.
CREATE FUNCTION users_join_default_unit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO unit_members (unit_id, user_id, role)
    SELECT id, NEW.id, 'investigator' FROM units WHERE is_default;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER users_join_default_unit AFTER INSERT ON users
  FOR EACH ROW EXECUTE FUNCTION users_join_default_unit();
