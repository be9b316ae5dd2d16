-- Showtimes of one hall never overlap: [starts_at, ends_at) ranges (ends_at includes the cleaning buffer)
-- may touch but not intersect. btree_gist lets the gist index compare auditorium ids with "=".
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
ALTER TABLE "showtimes" ADD CONSTRAINT "showtimes_no_overlap"
  EXCLUDE USING gist ("auditorium_id" WITH =, tstzrange("starts_at", "ends_at", '[)') WITH &&);
