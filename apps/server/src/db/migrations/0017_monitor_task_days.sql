CREATE TABLE "activity_task_days" (
	"tenant_id" uuid NOT NULL,
	"company_id" integer,
	"person_id" integer NOT NULL,
	"day_start" bigint NOT NULL,
	"task_id" integer NOT NULL,
	"active_ms" bigint NOT NULL,
	"idle_ms" bigint NOT NULL,
	"task_ms" bigint NOT NULL,
	CONSTRAINT "activity_task_days_pkey" PRIMARY KEY("tenant_id","person_id","day_start","task_id")
);
--> statement-breakpoint
CREATE TABLE "activity_task_days_stale" (
	"tenant_id" uuid NOT NULL,
	"person_id" integer NOT NULL,
	"day_start" bigint NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "activity_task_days_stale_pkey" PRIMARY KEY("tenant_id","person_id","day_start")
);
--> statement-breakpoint
ALTER TABLE "activity_task_days" ADD CONSTRAINT "activity_task_days_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_task_days_company_id_idx" ON "activity_task_days" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "activity_task_days_tenant_day_idx" ON "activity_task_days" USING btree ("tenant_id","day_start");--> statement-breakpoint
INSERT INTO "activity_task_days_stale" ("tenant_id", "person_id", "day_start")
SELECT DISTINCT "tenant_id", coalesce("user_id", -"account_id"), "day"
FROM "activity_spans", generate_series("started_at" - mod("started_at", 86400000), "ended_at" - 1, 86400000) AS "day"
WHERE "kind" IN ('session', 'idle', 'task') AND "ended_at" > "started_at" AND coalesce("user_id", -"account_id") IS NOT NULL;
