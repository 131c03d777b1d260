ALTER TABLE "job_runs" ADD COLUMN "denied_commands" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "last_denied_commands" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "environment_audit_run_idx" ON "environment_audit" USING btree ("run_id") WHERE "environment_audit"."run_id" is not null;