CREATE TABLE "execution_daily_time_rollups" (
	"tenant_id" uuid NOT NULL,
	"company_id" integer,
	"day_start" bigint NOT NULL,
	"execution_ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "execution_daily_time_rollups_pkey" PRIMARY KEY("tenant_id","day_start")
);
--> statement-breakpoint
CREATE TABLE "execution_last_runs" (
	"account_id" integer NOT NULL,
	"workflow_id" integer NOT NULL,
	"last_end" bigint NOT NULL,
	CONSTRAINT "execution_last_runs_pkey" PRIMARY KEY("account_id","workflow_id")
);
--> statement-breakpoint
ALTER TABLE "execution_daily_time_rollups" ADD CONSTRAINT "execution_daily_time_rollups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_last_runs" ADD CONSTRAINT "execution_last_runs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_last_runs" ADD CONSTRAINT "execution_last_runs_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "execution_daily_time_rollups_day_idx" ON "execution_daily_time_rollups" USING btree ("day_start");--> statement-breakpoint
CREATE INDEX "execution_daily_time_rollups_company_id_idx" ON "execution_daily_time_rollups" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "execution_last_runs_workflow_id_idx" ON "execution_last_runs" USING btree ("workflow_id");--> statement-breakpoint
CREATE INDEX "execution_logs_faulted_idx" ON "execution_logs" USING btree ("execution_start" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE status_type = 'faulted';--> statement-breakpoint
CREATE INDEX "execution_logs_search_idx" ON "execution_logs" USING gin (lower(coalesce("error_message", '') || e'\x01' || coalesce("error_activity", '') || e'\x01' || coalesce("workflow_name", '') || e'\x01' || coalesce("email_address", '') || e'\x01' || coalesce("mac_address", '') || e'\x01' || coalesce("company_name", '') || e'\x01' || coalesce("department_name", '') || e'\x01' || "executor_first_name" || ' ' || "executor_last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "execution_logs_exception_search_idx" ON "execution_logs" USING gin (lower(coalesce("error_message", '') || e'\x01' || coalesce("error_activity", '') || e'\x01' || coalesce("workflow_name", '') || e'\x01' || coalesce("email_address", '') || e'\x01' || coalesce("mac_address", '') || e'\x01' || "executor_first_name" || ' ' || "executor_last_name") gin_trgm_ops) WHERE status_type = 'faulted';--> statement-breakpoint
-- The executed time per UTC day, from the 15-minute rows kept so far (docs/reports.md).
INSERT INTO "execution_daily_time_rollups" ("tenant_id", "company_id", "day_start", "execution_ms")
SELECT "tenant_id", min("company_id"), "bucket_start" - mod("bucket_start", 86400000), sum("execution_ms")
FROM "execution_time_rollups" GROUP BY "tenant_id", "bucket_start" - mod("bucket_start", 86400000)
ORDER BY 1, 3;--> statement-breakpoint
-- Each key's last run of each workflow, from the logs kept so far.
INSERT INTO "execution_last_runs" ("account_id", "workflow_id", "last_end")
SELECT "account_id", "workflow_id", max("execution_end") FROM "execution_logs"
WHERE "account_id" IS NOT NULL AND "workflow_id" IS NOT NULL GROUP BY "account_id", "workflow_id";
