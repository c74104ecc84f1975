-- GET /api/health/ready compares the migrations folder with drizzle.__drizzle_migrations. In the
-- two-login setup (docs/security.md) the application's login is a member of footprint_app, which
-- may read that table and nothing else of the schema. Without the role (one login), nothing to do.
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'footprint_app') THEN
    GRANT USAGE ON SCHEMA drizzle TO footprint_app;
    GRANT SELECT ON drizzle.__drizzle_migrations TO footprint_app;
  END IF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'readiness: % may not grant footprint_app SELECT on drizzle.__drizzle_migrations', current_user;
END
$$;
