CREATE TABLE "deleted_spend" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"org_id" text NOT NULL,
	"user_id" text,
	"key_source" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"usd" numeric(12, 6) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organization_deletions" (
	"org_id" text PRIMARY KEY NOT NULL,
	"deleted_by" text NOT NULL,
	"environment_ids" jsonb NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "deleted_spend_org_idx" ON "deleted_spend" USING btree ("org_id","key_source","started_at");--> statement-breakpoint
CREATE INDEX "deleted_spend_started_idx" ON "deleted_spend" USING btree ("key_source","started_at");--> statement-breakpoint
CREATE INDEX "organization_deletions_by_idx" ON "organization_deletions" USING btree ("deleted_by","deleted_at");--> statement-breakpoint
-- What a deleted run or chat turn spent on a capped key stays counted (decision 0520): whatever
-- deletes the row (a job's or an organisation's cascade, retention), its spend and what it held
-- for a call going on are kept in deleted_spend, in the deleting transaction. Only what a cap reads:
-- runs on the deployment's or the organisation's key, turns admitted to the deployment's (a turn its
-- thread refused before the model has no cost and is not kept), started in the last 32 days.
CREATE FUNCTION "clockwork_keep_run_spend"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "deleted_spend" ("id", "kind", "org_id", "user_id", "key_source", "started_at", "usd")
  VALUES (OLD."id", 'run', OLD."org_id", OLD."run_as_user_id", OLD."key_source", OLD."started_at",
    coalesce(OLD."cost_usd", 0) + CASE WHEN OLD."status" = 'running' THEN OLD."reserved_usd" ELSE 0 END)
  ON CONFLICT ("id") DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "clockwork_keep_turn_spend"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "deleted_spend" ("id", "kind", "org_id", "user_id", "key_source", "started_at", "usd")
  VALUES (OLD."id", 'turn', OLD."org_id", OLD."user_id", OLD."key_source", OLD."started_at",
    OLD."cost_usd" + OLD."reserved_usd")
  ON CONFLICT ("id") DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "keep_spend" AFTER DELETE ON "job_runs" FOR EACH ROW
  WHEN (OLD."key_source" IN ('deployment', 'org') AND OLD."started_at" > now() - interval '32 days')
  EXECUTE FUNCTION "clockwork_keep_run_spend"();--> statement-breakpoint
CREATE TRIGGER "keep_spend" AFTER DELETE ON "chat_turns" FOR EACH ROW
  WHEN (OLD."key_source" = 'deployment' AND OLD."cost_usd" IS NOT NULL AND OLD."started_at" > now() - interval '32 days')
  EXECUTE FUNCTION "clockwork_keep_turn_spend"();
