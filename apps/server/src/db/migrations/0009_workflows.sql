CREATE TABLE "blobs" (
	"sha256" text PRIMARY KEY NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "directories" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "directories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" uuid NOT NULL,
	"parent_id" integer,
	"name" text NOT NULL,
	"id_path" text NOT NULL,
	"created_at" bigint NOT NULL,
	"created_by" integer,
	"updated_at" bigint NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "workflow_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "workflow_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"workflow_id" integer NOT NULL,
	"tenant_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"activity_keys" text[] NOT NULL,
	"steps" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"created_by" integer
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "workflows_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"tenant_id" uuid NOT NULL,
	"directory_id" integer,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"activity_keys" text[] DEFAULT '{}'::text[] NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL,
	"created_by" integer,
	"updated_at" bigint NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "directories" ADD CONSTRAINT "directories_parent_id_directories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."directories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "directories" ADD CONSTRAINT "directories_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "directories" ADD CONSTRAINT "directories_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_versions" ADD CONSTRAINT "workflow_versions_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_versions" ADD CONSTRAINT "workflow_versions_sha256_blobs_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."blobs"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_versions" ADD CONSTRAINT "workflow_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_directory_id_directories_id_fk" FOREIGN KEY ("directory_id") REFERENCES "public"."directories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "directories_sibling_name_key" ON "directories" USING btree ("tenant_id",coalesce("parent_id", 0),lower("name"));--> statement-breakpoint
CREATE INDEX "directories_id_path_idx" ON "directories" USING btree ("tenant_id","id_path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "directories_parent_id_idx" ON "directories" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_versions_number_key" ON "workflow_versions" USING btree ("workflow_id","number");--> statement-breakpoint
CREATE INDEX "workflow_versions_sha256_idx" ON "workflow_versions" USING btree ("sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "workflows_file_name_key" ON "workflows" USING btree ("directory_id",lower("file_name")) WHERE archived = false;--> statement-breakpoint
CREATE INDEX "workflows_directory_name_idx" ON "workflows" USING btree ("directory_id",lower("name"),"id") WHERE archived = false;--> statement-breakpoint
CREATE INDEX "workflows_tenant_created_idx" ON "workflows" USING btree ("tenant_id","created_at","id") WHERE archived = false;--> statement-breakpoint
-- Every company has its tree's root, 'Workflows' (new companies get theirs when they are made).
INSERT INTO "directories" ("tenant_id", "parent_id", "name", "id_path", "created_at", "updated_at")
SELECT "tenant_id", NULL, 'Workflows', '', (extract(epoch from now()) * 1000)::bigint, (extract(epoch from now()) * 1000)::bigint FROM "companies";--> statement-breakpoint
UPDATE "directories" SET "id_path" = '/' || "id" || '/' WHERE "id_path" = '';
