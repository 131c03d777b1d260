CREATE TABLE "cache_versions" (
	"scope" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- The page cache's versions (docs/decisions/0263-page-cache-versions-per-organisation-and-person.md):
-- each trigger names pairs of (scope kind, column); the row's value of that column moves the
-- counter of `<kind>:<value>`. Constraint triggers deferred to commit: the counter's row is locked
-- only while the writing transaction commits, after it holds every other lock it will take.
CREATE FUNCTION "clockwork_cache_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r jsonb;
  v text;
  i int := 0;
BEGIN
  IF TG_OP = 'DELETE' THEN r := to_jsonb(OLD); ELSE r := to_jsonb(NEW); END IF;
  WHILE i + 1 < TG_NARGS LOOP
    v := r ->> TG_ARGV[i + 1];
    IF v IS NOT NULL THEN
      INSERT INTO "cache_versions" AS c ("scope", "version") VALUES (TG_ARGV[i] || ':' || v, 1)
      ON CONFLICT ("scope") DO UPDATE SET "version" = c."version" + 1;
    END IF;
    i := i + 2;
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cache_bump" AFTER INSERT OR UPDATE OR DELETE ON "jobs" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "clockwork_cache_bump"('org', 'org_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cache_bump" AFTER INSERT OR DELETE ON "job_runs" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "clockwork_cache_bump"('org', 'org_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cache_bump_state" AFTER UPDATE ON "job_runs" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."started_at" IS DISTINCT FROM NEW."started_at" OR OLD."finished_at" IS DISTINCT FROM NEW."finished_at" OR OLD."thread_id" IS DISTINCT FROM NEW."thread_id") EXECUTE FUNCTION "clockwork_cache_bump"('org', 'org_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cache_bump" AFTER INSERT OR UPDATE OR DELETE ON "job_audit" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "clockwork_cache_bump"('org', 'org_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cache_bump" AFTER INSERT OR UPDATE OR DELETE ON "resources" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "clockwork_cache_bump"('org', 'org_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cache_bump" AFTER INSERT OR UPDATE OR DELETE ON "skills" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "clockwork_cache_bump"('org', 'org_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cache_bump" AFTER INSERT OR UPDATE OR DELETE ON "mcp_servers" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "clockwork_cache_bump"('org', 'org_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cache_bump" AFTER INSERT OR UPDATE OR DELETE ON "notification_endpoints" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "clockwork_cache_bump"('org', 'org_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cache_bump" AFTER INSERT OR UPDATE OR DELETE ON "model_keys" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "clockwork_cache_bump"('org', 'org_id', 'user', 'user_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cache_bump" AFTER INSERT OR UPDATE OR DELETE ON "org_settings" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "clockwork_cache_bump"('org', 'org_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cache_bump" AFTER INSERT OR UPDATE OR DELETE ON "organization" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "clockwork_cache_bump"('org', 'id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cache_bump" AFTER INSERT OR UPDATE OR DELETE ON "member" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "clockwork_cache_bump"('org', 'organization_id', 'user', 'user_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cache_bump" AFTER INSERT OR UPDATE OR DELETE ON "notifications" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "clockwork_cache_bump"('user', 'user_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cache_bump" AFTER INSERT OR UPDATE OR DELETE ON "user" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "clockwork_cache_bump"('user', 'id');
