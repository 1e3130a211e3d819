CREATE TABLE "execution_logs" (
	"id" uuid PRIMARY KEY NOT NULL,
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
	"workflow_id" integer,
	"workflow_name" text NOT NULL,
	"execution_start" bigint NOT NULL,
	"execution_end" bigint NOT NULL,
	"status_type" text NOT NULL,
	"error_message" text,
	"error_activity" text,
	"received_at" bigint NOT NULL,
	CONSTRAINT "execution_logs_status_type_check" CHECK ("execution_logs"."status_type" in ('success', 'faulted', 'unknown'))
);
--> statement-breakpoint
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
CREATE INDEX "execution_logs_department_id_idx" ON "execution_logs" USING btree ("department_id");