DROP INDEX "job_runs_job_idx";--> statement-breakpoint
ALTER TABLE "scheduler_instances" DROP COLUMN "hostname";--> statement-breakpoint
ALTER TABLE "scheduler_instances" DROP COLUMN "pid";