-- Ticket types, price cards, promo codes and orders (DESIGN §6.3). A checkout session is an order: it gets a short
-- reference, its subtotal, discount and promo code; each of its seats its ticket type, seat type, row label, list
-- price and discount. Sessions made before keep their prices and get a reference of the same alphabet.
CREATE TABLE "price_card_prices" (
	"price_card_id" uuid NOT NULL,
	"ticket_type_id" uuid NOT NULL,
	"seat_type" text NOT NULL,
	"price_cents" integer NOT NULL,
	CONSTRAINT "price_card_prices_price_card_id_ticket_type_id_seat_type_pk" PRIMARY KEY("price_card_id","ticket_type_id","seat_type"),
	CONSTRAINT "price_card_prices_price_check" CHECK ("price_card_prices"."price_cents" between 0 and 100000)
);
--> statement-breakpoint
CREATE TABLE "price_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"weekdays" integer[] NOT NULL,
	"starts_at" text NOT NULL,
	"ends_at" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_cards_window_check" CHECK ("price_cards"."starts_at" < "price_cards"."ends_at")
);
--> statement-breakpoint
CREATE TABLE "promo_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"percent_off" integer,
	"amount_off_cents" integer,
	"max_uses" integer,
	"max_uses_per_customer" integer,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"movie_id" uuid,
	"showtime_id" uuid,
	"uses" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_codes_discount_check" CHECK (("promo_codes"."percent_off" is null) <> ("promo_codes"."amount_off_cents" is null)
        and coalesce("promo_codes"."percent_off", 1) between 1 and 100 and coalesce("promo_codes"."amount_off_cents", 1) > 0),
	CONSTRAINT "promo_codes_uses_check" CHECK ("promo_codes"."uses" >= 0)
);
--> statement-breakpoint
CREATE TABLE "promo_redemptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"promo_code_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"checkout_session_id" uuid NOT NULL,
	"status" text DEFAULT 'reserved' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_redemptions_status_check" CHECK ("promo_redemptions"."status" in ('reserved', 'used', 'released'))
);
--> statement-breakpoint
CREATE TABLE "ticket_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkout_sessions" DROP CONSTRAINT "checkout_sessions_provider_check";--> statement-breakpoint
ALTER TABLE "checkout_sessions" DROP CONSTRAINT "checkout_sessions_amount_check";--> statement-breakpoint
ALTER TABLE "showtimes" ADD COLUMN "price_card_id" uuid;--> statement-breakpoint
ALTER TABLE "checkout_session_bookings" ADD COLUMN "ticket_type_id" uuid;--> statement-breakpoint
ALTER TABLE "checkout_session_bookings" ADD COLUMN "ticket_type_name" text;--> statement-breakpoint
ALTER TABLE "checkout_session_bookings" ADD COLUMN "seat_type" text;--> statement-breakpoint
ALTER TABLE "checkout_session_bookings" ADD COLUMN "seat_row_label" text;--> statement-breakpoint
ALTER TABLE "checkout_session_bookings" ADD COLUMN "list_price_cents" integer;--> statement-breakpoint
ALTER TABLE "checkout_session_bookings" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "ref" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "subtotal_cents" integer;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "promo_code" text;--> statement-breakpoint
ALTER TABLE "price_card_prices" ADD CONSTRAINT "price_card_prices_price_card_id_price_cards_id_fk" FOREIGN KEY ("price_card_id") REFERENCES "public"."price_cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_card_prices" ADD CONSTRAINT "price_card_prices_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_movie_id_movies_id_fk" FOREIGN KEY ("movie_id") REFERENCES "public"."movies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_showtime_id_showtimes_id_fk" FOREIGN KEY ("showtime_id") REFERENCES "public"."showtimes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_redemptions" ADD CONSTRAINT "promo_redemptions_promo_code_id_promo_codes_id_fk" FOREIGN KEY ("promo_code_id") REFERENCES "public"."promo_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_redemptions" ADD CONSTRAINT "promo_redemptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "price_cards_name_unique" ON "price_cards" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "promo_codes_code_unique" ON "promo_codes" USING btree (upper("code"));--> statement-breakpoint
CREATE UNIQUE INDEX "promo_redemptions_session_unique" ON "promo_redemptions" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE INDEX "promo_redemptions_customer_idx" ON "promo_redemptions" USING btree ("promo_code_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_types_name_unique" ON "ticket_types" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_ref_unique" UNIQUE("ref");--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_provider_check" CHECK ("checkout_sessions"."provider" in ('local', 'stripe', 'none'));--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_amount_check" CHECK ("checkout_sessions"."amount_cents" >= 0);--> statement-breakpoint
ALTER TABLE "showtimes" ADD CONSTRAINT "showtimes_price_card_id_price_cards_id_fk" FOREIGN KEY ("price_card_id") REFERENCES "public"."price_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
UPDATE "checkout_sessions" SET "ref" = upper(translate(substr(md5("id"::text), 1, 3), '0123456789abcdef', '23456789ABCDEFGH')) || '-' || upper(translate(substr(md5("id"::text), 4, 4), '0123456789abcdef', '23456789ABCDEFGH')), "subtotal_cents" = "amount_cents";--> statement-breakpoint
UPDATE "checkout_session_bookings" csb SET "list_price_cents" = csb."price_cents", "seat_type" = s."type", "seat_row_label" = s."row_label"
  FROM "bookings" b JOIN "seats" s ON s."id" = b."seat_id" WHERE b."id" = csb."booking_id";--> statement-breakpoint
UPDATE "checkout_session_bookings" SET "list_price_cents" = "price_cents" WHERE "list_price_cents" IS NULL;
