ALTER TABLE "machine_tokens" ADD COLUMN "machine_id" text;--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "created_by" text;--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD COLUMN "updated_by" text;--> statement-breakpoint
ALTER TABLE "resources" ADD CONSTRAINT "resources_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD CONSTRAINT "mcp_servers_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "machine_tokens_machine_uq" ON "machine_tokens" USING btree ("owner_id","machine_id") WHERE "machine_tokens"."revoked_at" is null and "machine_tokens"."machine_id" is not null;