CREATE TABLE "job_transfer_offers" (
	"job_id" text PRIMARY KEY NOT NULL,
	"to_user_id" text NOT NULL,
	"offered_by" text,
	"job_version" integer NOT NULL,
	"offered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "job_transfer_offers" ADD CONSTRAINT "job_transfer_offers_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_transfer_offers" ADD CONSTRAINT "job_transfer_offers_to_user_id_user_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_transfer_offers" ADD CONSTRAINT "job_transfer_offers_offered_by_user_id_fk" FOREIGN KEY ("offered_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;