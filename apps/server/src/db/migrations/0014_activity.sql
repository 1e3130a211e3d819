CREATE TABLE "activity_agents" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"last_seen" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_daily_rollups" (
	"tenant_id" uuid NOT NULL,
	"company_id" integer,
	"person_id" integer NOT NULL,
	"kind" text NOT NULL,
	"item" text DEFAULT '' NOT NULL,
	"duration_ms" bigint DEFAULT 0 NOT NULL,
	"starts" integer DEFAULT 0 NOT NULL,
	"day_start" bigint NOT NULL,
	CONSTRAINT "activity_daily_rollups_pkey" PRIMARY KEY("tenant_id","person_id","day_start","kind","item")
);
--> statement-breakpoint
CREATE TABLE "activity_rollups" (
	"tenant_id" uuid NOT NULL,
	"company_id" integer,
	"person_id" integer NOT NULL,
	"kind" text NOT NULL,
	"item" text DEFAULT '' NOT NULL,
	"duration_ms" bigint DEFAULT 0 NOT NULL,
	"starts" integer DEFAULT 0 NOT NULL,
	"bucket_start" bigint NOT NULL,
	CONSTRAINT "activity_rollups_pkey" PRIMARY KEY("tenant_id","person_id","bucket_start","kind","item")
);
--> statement-breakpoint
-- Activity spans are partitioned by UTC month of started_at, as execution_logs are (migration 0011):
-- the retention (ACTIVITY_RETENTION_DAYS) drops a month whole. The months are made by
-- opsdeck_month_partition('activity_spans', at) (platform/partitions.ts), ahead of the spans.
CREATE TABLE "activity_spans" (
	"id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"company_id" integer,
	"account_id" integer,
	"user_id" integer,
	"kind" text NOT NULL,
	"started_at" bigint NOT NULL,
	"ended_at" bigint,
	"application" text,
	"status_id" integer,
	"task_id" integer,
	"ended_by_server" boolean DEFAULT false NOT NULL,
	"received_at" bigint NOT NULL,
	CONSTRAINT "activity_spans_pkey" PRIMARY KEY("id","started_at"),
	CONSTRAINT "activity_spans_kind_check" CHECK ("activity_spans"."kind" in ('session', 'app', 'status', 'task', 'idle'))
) PARTITION BY RANGE ("started_at");
--> statement-breakpoint
ALTER TABLE "activity_agents" ADD CONSTRAINT "activity_agents_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_daily_rollups" ADD CONSTRAINT "activity_daily_rollups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_rollups" ADD CONSTRAINT "activity_rollups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_spans" ADD CONSTRAINT "activity_spans_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_spans" ADD CONSTRAINT "activity_spans_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_spans" ADD CONSTRAINT "activity_spans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_daily_rollups_day_idx" ON "activity_daily_rollups" USING btree ("day_start");--> statement-breakpoint
CREATE INDEX "activity_daily_rollups_company_id_idx" ON "activity_daily_rollups" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "activity_rollups_bucket_idx" ON "activity_rollups" USING btree ("bucket_start");--> statement-breakpoint
CREATE INDEX "activity_rollups_company_id_idx" ON "activity_rollups" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "activity_spans_tenant_start_idx" ON "activity_spans" USING btree ("tenant_id","started_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "activity_spans_tenant_kind_start_idx" ON "activity_spans" USING btree ("tenant_id","kind","started_at");--> statement-breakpoint
CREATE INDEX "activity_spans_tenant_user_kind_start_idx" ON "activity_spans" USING btree ("tenant_id","user_id","kind","started_at");--> statement-breakpoint
CREATE INDEX "activity_spans_open_account_idx" ON "activity_spans" USING btree ("account_id") WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX "activity_spans_open_tenant_idx" ON "activity_spans" USING btree ("tenant_id","kind") WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX "activity_spans_company_id_idx" ON "activity_spans" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "activity_spans_account_id_idx" ON "activity_spans" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "activity_spans_user_id_idx" ON "activity_spans" USING btree ("user_id");