CREATE TABLE "activities" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"key" text NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"partial" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL,
	"archived_at" bigint
);
--> statement-breakpoint
CREATE UNIQUE INDEX "activities_key_live_idx" ON "activities" USING btree (lower("key")) WHERE "activities"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "activities_created_at_idx" ON "activities" USING btree ("created_at");