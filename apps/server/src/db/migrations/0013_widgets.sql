CREATE TABLE "user_widget_layouts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"chosen_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_widgets" (
	"user_id" integer NOT NULL,
	"widget_key" text NOT NULL,
	"widget_order" integer NOT NULL,
	"widget_column_number" integer NOT NULL,
	CONSTRAINT "user_widgets_pkey" PRIMARY KEY("user_id","widget_key"),
	CONSTRAINT "user_widgets_order_check" CHECK ("user_widgets"."widget_order" > 0),
	CONSTRAINT "user_widgets_column_check" CHECK ("user_widgets"."widget_column_number" in (1, 2))
);
--> statement-breakpoint
ALTER TABLE "user_widget_layouts" ADD CONSTRAINT "user_widget_layouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_widgets" ADD CONSTRAINT "user_widgets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;