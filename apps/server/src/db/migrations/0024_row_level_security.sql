-- The second wall between companies (docs/tenancy.md): the server's queries run as the role
-- opsdeck_app, and every table that holds a company's rows lets that role see or write a row only
-- when its tenant is the transaction's opsdeck.tenant_id, or when opsdeck.scope is 'provider'.
-- Roles belong to the whole cluster (test databases share one), so the role is made only once.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'opsdeck_app') THEN
    CREATE ROLE opsdeck_app NOLOGIN;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL; -- another database of this cluster made it at the same moment
END $$;--> statement-breakpoint
-- A login that is not a superuser must be a member to SET ROLE opsdeck_app.
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
     AND NOT pg_has_role(current_user, 'opsdeck_app', 'MEMBER') THEN
    EXECUTE format('GRANT opsdeck_app TO %I', current_user);
  END IF;
END $$;--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO opsdeck_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO opsdeck_app;--> statement-breakpoint
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO opsdeck_app;--> statement-breakpoint
-- Partitions are reached through their parent, whose policies cover them; the role may not name
-- one directly (partitions.ts revokes the same from every partition it makes).
DO $$
DECLARE partition regclass;
BEGIN
  FOR partition IN SELECT c.oid::regclass FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                   WHERE n.nspname = 'public' AND c.relispartition AND c.relkind IN ('r', 'p')
  LOOP
    EXECUTE format('REVOKE ALL ON %s FROM opsdeck_app', partition);
  END LOOP;
END $$;--> statement-breakpoint
-- Every table with a tenant column: its rows are the tenant's; a null tenant is the provider's own
-- (its administrators, roles, solo licences), seen only in the provider's scope. The settings are
-- read once per statement (the sub-selects are init plans), not once per row.
DO $$
DECLARE t text;
BEGIN
  FOR t IN SELECT c.relname FROM pg_class c
           JOIN pg_namespace n ON n.oid = c.relnamespace
           JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      $p$CREATE POLICY tenant_wall ON %I TO opsdeck_app
           USING ((SELECT current_setting('opsdeck.scope', true)) = 'provider'
                  OR tenant_id = (SELECT nullif(current_setting('opsdeck.tenant_id', true), '')::uuid))
           WITH CHECK ((SELECT current_setting('opsdeck.scope', true)) = 'provider'
                  OR tenant_id = (SELECT nullif(current_setting('opsdeck.tenant_id', true), '')::uuid))$p$,
      t);
  END LOOP;
END $$;--> statement-breakpoint
-- Tables without a tenant column that hold a company's data: a row is visible when its parent is
-- (the parent's own policy decides, as the sub-select runs as opsdeck_app too).
DO $$
DECLARE
  child record;
BEGIN
  FOR child IN SELECT * FROM (VALUES
      ('sessions', 'EXISTS (SELECT FROM users p WHERE p.id = user_id)'),
      ('credentials', 'EXISTS (SELECT FROM users p WHERE p.id = user_id)'),
      ('password_reset_keys', 'EXISTS (SELECT FROM users p WHERE p.id = user_id)'),
      ('notification_preferences', 'EXISTS (SELECT FROM users p WHERE p.id = user_id)'),
      ('user_widget_layouts', 'EXISTS (SELECT FROM users p WHERE p.id = user_id)'),
      ('user_widgets', 'EXISTS (SELECT FROM users p WHERE p.id = user_id)'),
      ('user_roles', 'EXISTS (SELECT FROM users p WHERE p.id = user_id)'),
      ('role_authorities', 'EXISTS (SELECT FROM roles p WHERE p.id = role_id)'),
      ('activity_agents', 'EXISTS (SELECT FROM accounts p WHERE p.id = account_id)'),
      ('execution_last_runs', 'EXISTS (SELECT FROM accounts p WHERE p.id = account_id)'),
      ('webhook_deliveries', 'EXISTS (SELECT FROM webhook_endpoints p WHERE p.id = endpoint_id)')
    ) AS v(name, parent)
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', child.name);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', child.name);
    EXECUTE format(
      $p$CREATE POLICY tenant_wall ON %I TO opsdeck_app
           USING ((SELECT current_setting('opsdeck.scope', true)) = 'provider' OR (%s))
           WITH CHECK ((SELECT current_setting('opsdeck.scope', true)) = 'provider' OR (%s))$p$,
      child.name, child.parent, child.parent);
  END LOOP;
END $$;--> statement-breakpoint
-- A role grant is read through its user alone (one probe a row on the users list's hot path), and
-- written only when its role is in sight too: no company grants another's role.
ALTER POLICY tenant_wall ON user_roles
  WITH CHECK ((SELECT current_setting('opsdeck.scope', true)) = 'provider'
              OR (EXISTS (SELECT FROM users p WHERE p.id = user_id) AND EXISTS (SELECT FROM roles p WHERE p.id = role_id)));--> statement-breakpoint
-- Under row-level security a search's condition may use an index only if its functions are
-- LEAKPROOF (else it must wait until the policy has filtered each row): the wall is against our
-- own forgotten scopes, not hostile SQL, so the few functions our trigram indexes are built on
-- are marked so. Only a superuser may; without one the searches still answer, from a scan.
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION lower(text) LEAKPROOF;
    ALTER FUNCTION textcat(text, text) LEAKPROOF;
    ALTER FUNCTION textlike(text, text) LEAKPROOF;
    ALTER FUNCTION texticlike(text, text) LEAKPROOF;
    ALTER FUNCTION mac_compact(text[]) LEAKPROOF;
  END IF;
END $$;
