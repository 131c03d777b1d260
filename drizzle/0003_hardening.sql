CREATE TABLE "rate_limit" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"last_request" bigint NOT NULL,
	CONSTRAINT "rate_limit_key_unique" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "job_runs" ADD COLUMN "key_source" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "agent_may_edit_jobs" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "job_runs_deployment_key_idx" ON "job_runs" USING btree ("org_id","started_at") WHERE "job_runs"."key_source" = 'deployment';