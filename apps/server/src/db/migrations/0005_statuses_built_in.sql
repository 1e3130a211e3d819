-- `editable` meant "not built in", while the API's `editable` means "the caller may change it":
-- the column now says what it holds (issue 7, names that mean one thing).
ALTER TABLE "statuses" RENAME COLUMN "editable" TO "built_in";--> statement-breakpoint
UPDATE "statuses" SET "built_in" = NOT "built_in";--> statement-breakpoint
ALTER TABLE "statuses" ALTER COLUMN "built_in" SET DEFAULT false;
