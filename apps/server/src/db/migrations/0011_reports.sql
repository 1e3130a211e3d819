CREATE TABLE "execution_daily_rollups" (
	"tenant_id" uuid NOT NULL,
	"company_id" integer,
	"workflow_id" integer NOT NULL,
	"day_start" bigint NOT NULL,
	"succeeded" integer DEFAULT 0 NOT NULL,
	"faulted" integer DEFAULT 0 NOT NULL,
	"unknown" integer DEFAULT 0 NOT NULL,
	"queued" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "execution_daily_rollups_pkey" PRIMARY KEY("tenant_id","day_start","workflow_id")
);
--> statement-breakpoint
CREATE TABLE "execution_rollups" (
	"tenant_id" uuid NOT NULL,
	"company_id" integer,
	"workflow_id" integer NOT NULL,
	"bucket_start" bigint NOT NULL,
	"succeeded" integer DEFAULT 0 NOT NULL,
	"faulted" integer DEFAULT 0 NOT NULL,
	"unknown" integer DEFAULT 0 NOT NULL,
	"queued" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "execution_rollups_pkey" PRIMARY KEY("tenant_id","bucket_start","workflow_id")
);
--> statement-breakpoint
CREATE TABLE "execution_time_rollups" (
	"tenant_id" uuid NOT NULL,
	"company_id" integer,
	"bucket_start" bigint NOT NULL,
	"execution_ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "execution_time_rollups_pkey" PRIMARY KEY("tenant_id","bucket_start")
);
--> statement-breakpoint
CREATE TABLE "queued_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "queued_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" uuid NOT NULL,
	"company_id" integer,
	"account_id" integer,
	"entry_id" integer NOT NULL,
	"workflow_id" integer NOT NULL,
	"queued_at" bigint NOT NULL,
	"open" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
-- Execution logs become a table partitioned by month of execution_start (docs/reports.md): the
-- reports' retention drops a month whole. The rows of 0010 move into it; the rollups are built
-- from them at the server's first start (modules/reports/rollups.ts, rebuildRollups).
ALTER TABLE "execution_logs" RENAME TO "execution_logs_0010";--> statement-breakpoint
ALTER TABLE "execution_logs_0010" DROP CONSTRAINT "execution_logs_pkey";--> statement-breakpoint
DROP INDEX "execution_logs_tenant_start_idx";--> statement-breakpoint
DROP INDEX "execution_logs_tenant_faulted_idx";--> statement-breakpoint
DROP INDEX "execution_logs_start_idx";--> statement-breakpoint
DROP INDEX "execution_logs_tenant_executor_idx";--> statement-breakpoint
DROP INDEX "execution_logs_company_id_idx";--> statement-breakpoint
DROP INDEX "execution_logs_account_id_idx";--> statement-breakpoint
DROP INDEX "execution_logs_workflow_id_idx";--> statement-breakpoint
DROP INDEX "execution_logs_executor_user_id_idx";--> statement-breakpoint
DROP INDEX "execution_logs_department_id_idx";--> statement-breakpoint
CREATE TABLE "execution_logs" (
	"id" uuid NOT NULL,
	"tenant_id" uuid,
	"company_id" integer,
	"company_name" text,
	"department_id" integer,
	"department_name" text,
	"account_id" integer,
	"executor_user_id" integer,
	"executor_first_name" text DEFAULT '' NOT NULL,
	"executor_last_name" text DEFAULT '' NOT NULL,
	"email_address" text,
	"mac_address" text NOT NULL,
	"hostname" text,
	"workflow_id" integer,
	"workflow_name" text NOT NULL,
	"workflow_version" integer,
	"execution_start" bigint NOT NULL,
	"execution_end" bigint NOT NULL,
	"status_type" text NOT NULL,
	"error_message" text,
	"error_activity" text,
	"received_at" bigint NOT NULL,
	CONSTRAINT "execution_logs_pkey" PRIMARY KEY("id","execution_start"),
	CONSTRAINT "execution_logs_status_type_check" CHECK ("execution_logs"."status_type" in ('success', 'faulted', 'unknown'))
) PARTITION BY RANGE ("execution_start");--> statement-breakpoint
ALTER TABLE "execution_logs" ADD CONSTRAINT "execution_logs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_logs" ADD CONSTRAINT "execution_logs_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_logs" ADD CONSTRAINT "execution_logs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_logs" ADD CONSTRAINT "execution_logs_executor_user_id_users_id_fk" FOREIGN KEY ("executor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_logs" ADD CONSTRAINT "execution_logs_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "execution_logs_tenant_start_idx" ON "execution_logs" USING btree ("tenant_id","execution_start" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "execution_logs_tenant_faulted_idx" ON "execution_logs" USING btree ("tenant_id","execution_start" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE status_type = 'faulted';--> statement-breakpoint
CREATE INDEX "execution_logs_start_idx" ON "execution_logs" USING btree ("execution_start" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "execution_logs_tenant_executor_idx" ON "execution_logs" USING btree ("tenant_id","executor_user_id","execution_start");--> statement-breakpoint
CREATE INDEX "execution_logs_company_id_idx" ON "execution_logs" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "execution_logs_account_id_idx" ON "execution_logs" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "execution_logs_workflow_id_idx" ON "execution_logs" USING btree ("workflow_id");--> statement-breakpoint
CREATE INDEX "execution_logs_executor_user_id_idx" ON "execution_logs" USING btree ("executor_user_id");--> statement-breakpoint
CREATE INDEX "execution_logs_department_id_idx" ON "execution_logs" USING btree ("department_id");--> statement-breakpoint
-- The month's partition of a partitioned table for a time (epoch ms), made when missing: named
-- <parent>_pYYYY_MM, bounds the UTC month's first millisecond to the next month's. Two sessions
-- making one at once both succeed.
CREATE OR REPLACE FUNCTION opsdeck_month_partition(parent text, at_ms bigint) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  wall timestamp := date_trunc('month', to_timestamp(at_ms / 1000.0) AT TIME ZONE 'UTC');
  lower_ms bigint := (extract(epoch from wall AT TIME ZONE 'UTC') * 1000)::bigint;
  upper_ms bigint := (extract(epoch from (wall + interval '1 month') AT TIME ZONE 'UTC') * 1000)::bigint;
  name text := parent || '_p' || to_char(wall, 'YYYY_MM');
BEGIN
  EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES FROM (%s) TO (%s)', name, parent, lower_ms, upper_ms);
  RETURN name;
EXCEPTION WHEN duplicate_table OR unique_violation THEN
  RETURN name;
END $$;--> statement-breakpoint
SELECT opsdeck_month_partition('execution_logs', month_ms)
FROM (SELECT DISTINCT (extract(epoch from date_trunc('month', to_timestamp(execution_start / 1000.0) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') * 1000)::bigint AS month_ms FROM "execution_logs_0010") AS months;--> statement-breakpoint
INSERT INTO "execution_logs" ("id", "tenant_id", "company_id", "company_name", "department_id", "department_name", "account_id", "executor_user_id", "executor_first_name", "executor_last_name", "email_address", "mac_address", "workflow_id", "workflow_name", "execution_start", "execution_end", "status_type", "error_message", "error_activity", "received_at")
SELECT "id", "tenant_id", "company_id", "company_name", "department_id", "department_name", "account_id", "executor_user_id", "executor_first_name", "executor_last_name", "email_address", "mac_address", "workflow_id", "workflow_name", "execution_start", "execution_end", "status_type", "error_message", "error_activity", "received_at" FROM "execution_logs_0010";--> statement-breakpoint
DROP TABLE "execution_logs_0010";--> statement-breakpoint
ALTER TABLE "execution_daily_rollups" ADD CONSTRAINT "execution_daily_rollups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_rollups" ADD CONSTRAINT "execution_rollups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_time_rollups" ADD CONSTRAINT "execution_time_rollups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queued_runs" ADD CONSTRAINT "queued_runs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queued_runs" ADD CONSTRAINT "queued_runs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "execution_daily_rollups_day_idx" ON "execution_daily_rollups" USING btree ("day_start");--> statement-breakpoint
CREATE INDEX "execution_daily_rollups_company_id_idx" ON "execution_daily_rollups" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "execution_rollups_bucket_idx" ON "execution_rollups" USING btree ("bucket_start");--> statement-breakpoint
CREATE INDEX "execution_rollups_company_id_idx" ON "execution_rollups" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "execution_time_rollups_bucket_idx" ON "execution_time_rollups" USING btree ("bucket_start");--> statement-breakpoint
CREATE INDEX "execution_time_rollups_company_id_idx" ON "execution_time_rollups" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "queued_runs_open_entry_key" ON "queued_runs" USING btree ("account_id","entry_id","workflow_id") WHERE open;--> statement-breakpoint
CREATE INDEX "queued_runs_tenant_queued_idx" ON "queued_runs" USING btree ("tenant_id","queued_at");--> statement-breakpoint
CREATE INDEX "queued_runs_queued_idx" ON "queued_runs" USING btree ("queued_at");--> statement-breakpoint
CREATE INDEX "queued_runs_company_id_idx" ON "queued_runs" USING btree ("company_id");