-- A thumbnail of each finished capture for the case page's list (not evidence: no manifest lists it, a removal deletes it).
CREATE TABLE "capture_previews" (
	"capture_id" uuid PRIMARY KEY NOT NULL,
	"body" "bytea" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "capture_previews" ADD CONSTRAINT "capture_previews_capture_id_case_captures_id_fk" FOREIGN KEY ("capture_id") REFERENCES "public"."case_captures"("id") ON DELETE restrict ON UPDATE no action;