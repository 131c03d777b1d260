CREATE TABLE "skill_audit" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "skill_audit_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"skill_id" text NOT NULL,
	"org_id" text NOT NULL,
	"actor_id" text,
	"action" text NOT NULL,
	"via" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "skills" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"content" text NOT NULL,
	"status" text NOT NULL,
	"created_by" text,
	"origin" text NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "definition_hash" text;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "bootstrap" jsonb;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "snapshot_hash" text;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "snapshot_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "skills" ADD CONSTRAINT "skills_org_id_organization_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skills" ADD CONSTRAINT "skills_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "skill_audit_skill_idx" ON "skill_audit" USING btree ("skill_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "skills_org_name_uq" ON "skills" USING btree ("org_id","name");