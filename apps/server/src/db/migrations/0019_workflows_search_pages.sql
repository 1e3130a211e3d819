DROP INDEX "workflows_directory_name_idx";--> statement-breakpoint
CREATE INDEX "workflows_directory_description_idx" ON "workflows" USING btree ("directory_id",lower("description"),"id","description") WHERE archived = false;--> statement-breakpoint
CREATE INDEX "workflows_directory_created_idx" ON "workflows" USING btree ("directory_id","created_at","id") WHERE archived = false;--> statement-breakpoint
CREATE INDEX "workflows_directory_updated_idx" ON "workflows" USING btree ("directory_id","updated_at","id") WHERE archived = false;--> statement-breakpoint
CREATE INDEX "workflows_directory_size_idx" ON "workflows" USING btree ("directory_id","size","id") WHERE archived = false;--> statement-breakpoint
CREATE INDEX "workflows_name_trgm_idx" ON "workflows" USING gin (lower("name") gin_trgm_ops) WHERE archived = false;--> statement-breakpoint
CREATE INDEX "workflows_description_trgm_idx" ON "workflows" USING gin (lower("description") gin_trgm_ops) WHERE archived = false;--> statement-breakpoint
CREATE INDEX "workflows_directory_name_idx" ON "workflows" USING btree ("directory_id",lower("name"),"id","name") WHERE archived = false;