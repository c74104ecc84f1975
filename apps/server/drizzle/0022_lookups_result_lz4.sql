-- A lookup's stored answer (lookups.result, a few KB of JSON) is compressed when it is written, on
-- every settle: with PostgreSQL's default pglz that compression was about a seventh of the database's
-- CPU per lookup (perf, bench:lookup). LZ4 compresses several times faster at a similar ratio. Only
-- a server built with LZ4 offers it (Debian's and the official images are); PGlite is not, and keeps
-- pglz. Rows already stored keep their compression until rewritten; both are read alike.
DO $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM pg_catalog.pg_settings
    WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)
  ) THEN
    ALTER TABLE "lookups" ALTER COLUMN "result" SET COMPRESSION lz4;
  END IF;
END;
$$;
