CREATE TABLE "job_mails" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "job_mails_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"address" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD COLUMN "paced_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "job_mails_address_idx" ON "job_mails" USING btree ("address","sent_at");--> statement-breakpoint
CREATE INDEX "job_mails_sent_brin" ON "job_mails" USING brin ("sent_at");