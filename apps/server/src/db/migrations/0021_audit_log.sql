CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" bigint NOT NULL,
	"tenant_id" uuid,
	"company_name" text,
	"actor_type" text NOT NULL,
	"actor_id" integer,
	"actor_token_id" integer,
	"actor_name" text NOT NULL,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text,
	"entity_name" text,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"address" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_tenant_at_idx" ON "audit_log" USING btree ("tenant_id","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_at_idx" ON "audit_log" USING btree ("actor_id","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_entity_at_idx" ON "audit_log" USING btree ("entity_type","entity_id","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_action_at_idx" ON "audit_log" USING btree ("action","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_tenant_action_at_idx" ON "audit_log" USING btree ("tenant_id","action","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_tenant_actor_at_idx" ON "audit_log" USING btree ("tenant_id","actor_id","at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_search_trgm_idx" ON "audit_log" USING gin (lower("actor_name" || ' ' || coalesce("entity_name", '') || ' ' || coalesce("company_name", '') || ' ' || "action") gin_trgm_ops);
--> statement-breakpoint
-- Append-only (docs/audit.md): no UPDATE, no TRUNCATE, and DELETE only by the retention, which says
-- so in its transaction (opsdeck.audit_retention = 'on') and only for rows older than 30 days.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('opsdeck.audit_retention', true) = 'on' THEN
    IF OLD."at" < (extract(epoch FROM clock_timestamp()) * 1000)::bigint - 30::bigint * 86400000 THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();
--> statement-breakpoint
-- The company administrators' built-in roles of companies made before this version read their
-- company's audit log too (new companies get it from the role's definition).
INSERT INTO "authorities" ("key", "title") VALUES ('VIEW_AUDIT_LOG', 'View audit log') ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "role_authorities" ("role_id", "authority_key")
  SELECT "id", 'VIEW_AUDIT_LOG' FROM "roles" WHERE "built_in" = 'COMPANY_ADMINISTRATOR'
  ON CONFLICT DO NOTHING;
