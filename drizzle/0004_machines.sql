CREATE TABLE "machine_runs" (
	"owner_id" text NOT NULL,
	"machine_id" text NOT NULL,
	"run_id" text NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stop_requested_at" timestamp with time zone,
	"stop_delivered_at" timestamp with time zone,
	CONSTRAINT "machine_runs_owner_id_machine_id_run_id_pk" PRIMARY KEY("owner_id","machine_id","run_id")
);
--> statement-breakpoint
CREATE TABLE "machine_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "machines" (
	"owner_id" text NOT NULL,
	"id" text NOT NULL,
	"label" text NOT NULL,
	"os" text NOT NULL,
	"version" text NOT NULL,
	"dir" text NOT NULL,
	"token_id" text,
	"instance_id" text,
	"instance_url" text,
	"connection_id" text,
	"connected" boolean DEFAULT false NOT NULL,
	"connected_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "machines_owner_id_id_pk" PRIMARY KEY("owner_id","id")
);
--> statement-breakpoint
ALTER TABLE "machine_tokens" ADD CONSTRAINT "machine_tokens_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machines" ADD CONSTRAINT "machines_owner_id_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "machine_runs_run_idx" ON "machine_runs" USING btree ("run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "machine_tokens_hash_uq" ON "machine_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "machine_tokens_owner_idx" ON "machine_tokens" USING btree ("owner_id");