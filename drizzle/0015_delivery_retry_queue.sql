CREATE TABLE "pending_deliveries" (
	"message_id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"org_id" text NOT NULL,
	"creator_id" text NOT NULL,
	"target" text NOT NULL,
	"message" jsonb NOT NULL,
	"attempt" integer NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pending_deliveries" ADD CONSTRAINT "pending_deliveries_run_id_job_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."job_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pending_deliveries_due_idx" ON "pending_deliveries" USING btree ("next_attempt_at");