CREATE TABLE "admin_reset_links" (
	"user_id" text PRIMARY KEY NOT NULL,
	"link_id" text,
	"link_actor_id" text,
	"link_expires_at" timestamp with time zone,
	"password_set_by_id" text,
	"password_set_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "admin_reset_links" ADD CONSTRAINT "admin_reset_links_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_reset_links" ADD CONSTRAINT "admin_reset_links_link_actor_id_user_id_fk" FOREIGN KEY ("link_actor_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_reset_links" ADD CONSTRAINT "admin_reset_links_password_set_by_id_user_id_fk" FOREIGN KEY ("password_set_by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;