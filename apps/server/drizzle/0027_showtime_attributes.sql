ALTER TABLE "showtimes" ADD COLUMN "attributes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "price_cards" ADD COLUMN "attribute" text;