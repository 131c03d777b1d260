CREATE TABLE "audit_volume" (
	"actor_id" text NOT NULL,
	"day" date NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "audit_volume_actor_id_day_pk" PRIMARY KEY("actor_id","day")
);
