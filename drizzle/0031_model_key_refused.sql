ALTER TABLE "model_keys" ADD COLUMN "refused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "model_keys" ADD COLUMN "refused_reason" text;