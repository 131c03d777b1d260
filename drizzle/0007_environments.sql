CREATE TABLE "environment_audit" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "environment_audit_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"environment_id" text NOT NULL,
	"org_id" text NOT NULL,
	"actor_id" text,
	"run_id" text,
	"thread_id" text,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"decision" text NOT NULL,
	"rule" text,
	"reason" text,
	"exit_code" integer,
	"duration_ms" integer,
	"bytes_out" bigint,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "environments" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"scope" text NOT NULL,
	"created_by" text NOT NULL,
	"name" text NOT NULL,
	"instance_id" text NOT NULL,
	"dir" text NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "secrets" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text,
	"user_id" text,
	"name" text NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "environment" text;--> statement-breakpoint
ALTER TABLE "environments" ADD CONSTRAINT "environments_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "environments" ADD CONSTRAINT "environments_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "secrets" ADD CONSTRAINT "secrets_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "secrets" ADD CONSTRAINT "secrets_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "environment_audit_env_idx" ON "environment_audit" USING btree ("environment_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "environments_shared_uq" ON "environments" USING btree ("org_id","name") WHERE "environments"."scope" = 'shared';--> statement-breakpoint
CREATE UNIQUE INDEX "environments_personal_uq" ON "environments" USING btree ("org_id","created_by","name") WHERE "environments"."scope" = 'personal';--> statement-breakpoint
CREATE UNIQUE INDEX "secrets_org_uq" ON "secrets" USING btree ("org_id","name") WHERE "secrets"."user_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "secrets_user_uq" ON "secrets" USING btree ("user_id","name") WHERE "secrets"."org_id" is null;