-- MAC addresses without their colons, for the accounts search's trigram index (accounts_mac_trgm_idx):
-- an index needs an immutable expression, and array_to_string is only stable.
CREATE FUNCTION mac_compact(addresses text[]) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN replace(array_to_string(addresses, ' '), ':', '');--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"license_id" integer NOT NULL,
	"tenant_id" uuid,
	"solo" boolean DEFAULT false NOT NULL,
	"department_id" integer,
	"department_name" text,
	"key_digest" text NOT NULL,
	"partial_key" text NOT NULL,
	"sealed_key" "bytea",
	"full_name" text,
	"email_address" text,
	"mac_addresses" text[] DEFAULT '{}'::text[] NOT NULL,
	"hostname" text,
	"created_by" integer,
	"invalidated_at" bigint,
	"archived" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "licenses" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "licenses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer,
	"tenant_id" uuid,
	"type_key" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"issue_date" bigint NOT NULL,
	"expiration_date" bigint NOT NULL,
	"max_accounts" integer NOT NULL,
	"invalidated_at" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_type_key_license_types_key_fk" FOREIGN KEY ("type_key") REFERENCES "public"."license_types"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_key_digest_key" ON "accounts" USING btree ("key_digest");--> statement-breakpoint
CREATE INDEX "accounts_license_id_idx" ON "accounts" USING btree ("license_id","id");--> statement-breakpoint
CREATE INDEX "accounts_tenant_id_idx" ON "accounts" USING btree ("tenant_id","id") WHERE archived = false;--> statement-breakpoint
CREATE INDEX "accounts_full_name_idx" ON "accounts" USING btree (lower(coalesce("full_name", '')),"id","full_name") WHERE archived = false;--> statement-breakpoint
CREATE INDEX "accounts_email_idx" ON "accounts" USING btree (lower(coalesce("email_address", '')),"id") WHERE archived = false;--> statement-breakpoint
CREATE INDEX "accounts_solo_idx" ON "accounts" USING btree ("solo","id") WHERE archived = false;--> statement-breakpoint
CREATE INDEX "accounts_full_name_trgm_idx" ON "accounts" USING gin (lower(coalesce("full_name", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "accounts_email_trgm_idx" ON "accounts" USING gin (lower(coalesce("email_address", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "accounts_partial_key_trgm_idx" ON "accounts" USING gin ("partial_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "accounts_mac_trgm_idx" ON "accounts" USING gin (mac_compact("mac_addresses") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "licenses_company_id_idx" ON "licenses" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "licenses_expiration_date_idx" ON "licenses" USING btree ("expiration_date","id");--> statement-breakpoint
CREATE INDEX "companies_name_trgm_idx" ON "companies" USING gin (lower("name") gin_trgm_ops);