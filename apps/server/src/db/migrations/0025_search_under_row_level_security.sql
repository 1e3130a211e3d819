-- The search and page indexes in the forms row-level security lets them serve (docs/tenancy.md,
-- "Searches under row-level security"): null read as '' by CASE, not COALESCE, and the tenant in the
-- indexes a page is read from alone (the policy reads it).
DROP INDEX "audit_log_search_trgm_idx";--> statement-breakpoint
DROP INDEX "execution_logs_search_idx";--> statement-breakpoint
DROP INDEX "execution_logs_exception_search_idx";--> statement-breakpoint
DROP INDEX "accounts_full_name_idx";--> statement-breakpoint
DROP INDEX "accounts_email_idx";--> statement-breakpoint
DROP INDEX "accounts_full_name_trgm_idx";--> statement-breakpoint
DROP INDEX "accounts_email_trgm_idx";--> statement-breakpoint
DROP INDEX "workflows_directory_name_idx";--> statement-breakpoint
DROP INDEX "workflows_directory_description_idx";--> statement-breakpoint
DROP INDEX "workflows_directory_created_idx";--> statement-breakpoint
DROP INDEX "workflows_directory_updated_idx";--> statement-breakpoint
DROP INDEX "workflows_directory_size_idx";--> statement-breakpoint
CREATE INDEX "audit_log_search_trgm_idx" ON "audit_log" USING gin (lower("actor_name" || ' ' || (case when "entity_name" is null then '' else "entity_name" end) || ' ' || (case when "company_name" is null then '' else "company_name" end) || ' ' || "action") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "execution_logs_search_idx" ON "execution_logs" USING gin (lower((case when "error_message" is null then '' else "error_message" end) || e'\x01' || (case when "error_activity" is null then '' else "error_activity" end) || e'\x01' || (case when "workflow_name" is null then '' else "workflow_name" end) || e'\x01' || (case when "email_address" is null then '' else "email_address" end) || e'\x01' || (case when "mac_address" is null then '' else "mac_address" end) || e'\x01' || (case when "company_name" is null then '' else "company_name" end) || e'\x01' || (case when "department_name" is null then '' else "department_name" end) || e'\x01' || "executor_first_name" || ' ' || "executor_last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "execution_logs_exception_search_idx" ON "execution_logs" USING gin (lower((case when "error_message" is null then '' else "error_message" end) || e'\x01' || (case when "error_activity" is null then '' else "error_activity" end) || e'\x01' || (case when "workflow_name" is null then '' else "workflow_name" end) || e'\x01' || (case when "email_address" is null then '' else "email_address" end) || e'\x01' || (case when "mac_address" is null then '' else "mac_address" end) || e'\x01' || "executor_first_name" || ' ' || "executor_last_name") gin_trgm_ops) WHERE status_type = 'faulted';--> statement-breakpoint
CREATE INDEX "accounts_full_name_idx" ON "accounts" USING btree (lower((case when "full_name" is null then '' else "full_name" end)),"id","full_name","tenant_id") WHERE archived = false;--> statement-breakpoint
CREATE INDEX "accounts_email_idx" ON "accounts" USING btree (lower((case when "email_address" is null then '' else "email_address" end)),"id","tenant_id") WHERE archived = false;--> statement-breakpoint
CREATE INDEX "accounts_full_name_trgm_idx" ON "accounts" USING gin (lower((case when "full_name" is null then '' else "full_name" end)) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "accounts_email_trgm_idx" ON "accounts" USING gin (lower((case when "email_address" is null then '' else "email_address" end)) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "workflows_directory_name_idx" ON "workflows" USING btree ("directory_id",lower("name"),"id","name","tenant_id") WHERE archived = false;--> statement-breakpoint
CREATE INDEX "workflows_directory_description_idx" ON "workflows" USING btree ("directory_id",lower("description"),"id","description","tenant_id") WHERE archived = false;--> statement-breakpoint
CREATE INDEX "workflows_directory_created_idx" ON "workflows" USING btree ("directory_id","created_at","id","tenant_id") WHERE archived = false;--> statement-breakpoint
CREATE INDEX "workflows_directory_updated_idx" ON "workflows" USING btree ("directory_id","updated_at","id","tenant_id") WHERE archived = false;--> statement-breakpoint
CREATE INDEX "workflows_directory_size_idx" ON "workflows" USING btree ("directory_id","size","id","tenant_id") WHERE archived = false;