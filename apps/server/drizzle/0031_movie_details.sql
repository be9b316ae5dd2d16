-- Issue 37 (DESIGN §7.5): movie details (genres, cast, director, release date, trailer link) and the certificates of
-- RATING_SYSTEM a ticket type is not sold for.
ALTER TABLE "movies" ADD COLUMN "genres" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "movies" ADD COLUMN "cast_members" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "movies" ADD COLUMN "director" text;--> statement-breakpoint
ALTER TABLE "movies" ADD COLUMN "release_date" date;--> statement-breakpoint
ALTER TABLE "movies" ADD COLUMN "trailer_url" text;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "excluded_ratings" text[] DEFAULT '{}'::text[] NOT NULL;