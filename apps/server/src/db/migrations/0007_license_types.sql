CREATE TABLE "license_type_activities" (
	"license_type_key" text NOT NULL,
	"activity_id" integer NOT NULL,
	CONSTRAINT "license_type_activities_license_type_key_activity_id_pk" PRIMARY KEY("license_type_key","activity_id")
);
--> statement-breakpoint
CREATE TABLE "license_types" (
	"key" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "license_type_activities" ADD CONSTRAINT "license_type_activities_license_type_key_license_types_key_fk" FOREIGN KEY ("license_type_key") REFERENCES "public"."license_types"("key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_type_activities" ADD CONSTRAINT "license_type_activities_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;