DROP INDEX "job_mails_address_idx";--> statement-breakpoint
ALTER TABLE "job_mails" ADD COLUMN "own" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "job_mails_address_idx" ON "job_mails" USING btree ("address","own","sent_at");