ALTER TABLE "users" ADD COLUMN "role_key" text;--> statement-breakpoint
CREATE INDEX "users_tenant_role_asc_idx" ON "users" USING btree ("tenant_id","role_key",lower("first_name" || ' ' || "last_name"),"id") WHERE "users"."archived" = false;--> statement-breakpoint
CREATE INDEX "users_tenant_role_desc_idx" ON "users" USING btree ("tenant_id","role_key" DESC NULLS LAST,lower("first_name" || ' ' || "last_name"),"id") WHERE "users"."archived" = false;--> statement-breakpoint
-- users.role_key: the first of a user's role names, lower-cased; kept here, in the database, so
-- every writer of user_roles and roles (services, seeds, tests) keeps it right.
CREATE FUNCTION "users_refresh_role_key"("user_ids" integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "role_key" = (
    SELECT min(lower("roles"."name")) FROM "user_roles"
    JOIN "roles" ON "roles"."id" = "user_roles"."role_id"
    WHERE "user_roles"."user_id" = "users"."id"
  )
  WHERE "users"."id" = ANY("user_ids");
END $$;--> statement-breakpoint
CREATE FUNCTION "user_roles_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "users_refresh_role_key"(ARRAY(SELECT DISTINCT "user_id" FROM "added"));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "user_roles_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "users_refresh_role_key"(ARRAY(SELECT DISTINCT "user_id" FROM "removed"));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "roles_renamed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "users_refresh_role_key"(ARRAY(SELECT "user_id" FROM "user_roles" WHERE "role_id" = NEW."id"));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "user_roles_added" AFTER INSERT ON "user_roles"
  REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "user_roles_added"();--> statement-breakpoint
CREATE TRIGGER "user_roles_removed" AFTER DELETE ON "user_roles"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "user_roles_removed"();--> statement-breakpoint
CREATE TRIGGER "roles_renamed" AFTER UPDATE OF "name" ON "roles"
  FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name") EXECUTE FUNCTION "roles_renamed"();--> statement-breakpoint
UPDATE "users" SET "role_key" = (
  SELECT min(lower("roles"."name")) FROM "user_roles"
  JOIN "roles" ON "roles"."id" = "user_roles"."role_id"
  WHERE "user_roles"."user_id" = "users"."id"
);
