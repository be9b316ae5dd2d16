-- Orders: one commerce core (DESIGN §7.1, decision 039). Checkout sessions become orders (their status in DESIGN's
-- words), their seats become order lines of kind TICKET (with a unit price, quantity and tax), every paid order gets
-- the payment that paid it (the provider's card, nothing, or cash or the card terminal at the counter), and refunds
-- become order refunds, each against that payment. Nothing is recomputed: every amount is copied as it was charged.
DROP TRIGGER sales_report_order_update ON checkout_sessions;--> statement-breakpoint
DROP TRIGGER sales_report_line_change ON checkout_session_bookings;--> statement-breakpoint
DROP TRIGGER sales_report_refund_change ON payment_refunds;--> statement-breakpoint

-- orders
ALTER TABLE "checkout_sessions" RENAME TO "orders";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "checkout_sessions_status_check";--> statement-breakpoint
UPDATE "orders" SET "status" = CASE "status"
  WHEN 'open' THEN 'OPEN' WHEN 'paid' THEN 'PAID' WHEN 'expired' THEN 'EXPIRED' WHEN 'cancelled' THEN 'CANCELLED'
  WHEN 'refunded' THEN 'REFUNDED' WHEN 'partially_refunded' THEN 'PARTLY_REFUNDED' WHEN 'superseded' THEN 'SUPERSEDED'
  ELSE "status" END;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "status" SET DEFAULT 'OPEN';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('OPEN', 'PAID', 'EXPIRED', 'CANCELLED', 'PARTLY_REFUNDED', 'REFUNDED', 'SUPERSEDED'));--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "checkout_sessions_pkey" TO "orders_pkey";--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "checkout_sessions_provider_check" TO "orders_provider_check";--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "checkout_sessions_payment_method_check" TO "orders_payment_method_check";--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "checkout_sessions_amount_check" TO "orders_amount_check";--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "checkout_sessions_provider_session_unique" TO "orders_provider_session_unique";--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "checkout_sessions_ref_unique" TO "orders_ref_unique";--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "checkout_sessions_guest_token_hash_unique" TO "orders_guest_token_hash_unique";--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "checkout_sessions_user_id_users_id_fk" TO "orders_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "checkout_sessions_sold_by_users_id_fk" TO "orders_sold_by_users_id_fk";--> statement-breakpoint
ALTER INDEX "checkout_sessions_user_idx" RENAME TO "orders_user_idx";--> statement-breakpoint

-- order lines
ALTER TABLE "checkout_session_bookings" RENAME TO "order_lines";--> statement-breakpoint
ALTER TABLE "order_lines" RENAME COLUMN "session_id" TO "order_id";--> statement-breakpoint
ALTER TABLE "order_lines" RENAME CONSTRAINT "checkout_session_bookings_pkey" TO "order_lines_pkey";--> statement-breakpoint
ALTER TABLE "order_lines" RENAME CONSTRAINT "checkout_session_bookings_result_check" TO "order_lines_result_check";--> statement-breakpoint
ALTER TABLE "order_lines" RENAME CONSTRAINT "checkout_session_bookings_session_id_checkout_sessions_id_fk" TO "order_lines_order_id_orders_id_fk";--> statement-breakpoint
ALTER TABLE "order_lines" RENAME CONSTRAINT "checkout_session_bookings_booking_id_bookings_id_fk" TO "order_lines_booking_id_bookings_id_fk";--> statement-breakpoint
ALTER INDEX "checkout_session_bookings_session_booking_unique" RENAME TO "order_lines_order_booking_unique";--> statement-breakpoint
ALTER INDEX "checkout_session_bookings_booking_idx" RENAME TO "order_lines_booking_idx";--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "kind" text DEFAULT 'TICKET' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "quantity" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "unit_price_cents" integer;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "tax_rate_bp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "tax_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A seat's unit price is its list price (before the promo code), or for the oldest lines, which kept none, its price
-- and the discount taken from it.
UPDATE "order_lines" SET "unit_price_cents" = coalesce("list_price_cents", "price_cents" + "discount_cents");--> statement-breakpoint
ALTER TABLE "order_lines" ALTER COLUMN "unit_price_cents" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ALTER COLUMN "seat_row" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ALTER COLUMN "seat_number" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "order_lines_order_idx" ON "order_lines" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_kind_check" CHECK ("order_lines"."kind" in ('TICKET', 'PRODUCT', 'GIFT_CARD', 'FEE'));--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_ticket_check" CHECK ("order_lines"."kind" <> 'TICKET' or ("order_lines"."seat_row" is not null and "order_lines"."seat_number" is not null and "order_lines"."quantity" = 1));--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_booking_check" CHECK ("order_lines"."kind" = 'TICKET' or "order_lines"."booking_id" is null);--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_amounts_check" CHECK ("order_lines"."quantity" > 0 and "order_lines"."unit_price_cents" >= 0 and "order_lines"."discount_cents" >= 0 and "order_lines"."price_cents" >= 0
        and "order_lines"."tax_cents" >= 0 and "order_lines"."tax_cents" <= "order_lines"."price_cents" and "order_lines"."tax_rate_bp" >= 0);--> statement-breakpoint

-- order payments: one for every order that was paid, as it was paid
CREATE TABLE "order_payments" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"order_id" uuid NOT NULL,
	"method" text NOT NULL,
	"status" text DEFAULT 'PAID' NOT NULL,
	"amount_cents" integer NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"provider" text,
	"provider_reference" text,
	"taken_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "order_payments_method_check" CHECK ("order_payments"."method" in ('CARD', 'GIFT_CARD', 'CASH', 'CARD_TERMINAL', 'FREE')),
	CONSTRAINT "order_payments_status_check" CHECK ("order_payments"."status" in ('PENDING', 'PAID', 'VOIDED')),
	CONSTRAINT "order_payments_amounts_check" CHECK ("order_payments"."amount_cents" >= 0 and "order_payments"."refunded_cents" >= 0 and "order_payments"."refunded_cents" <= "order_payments"."amount_cents")
);--> statement-breakpoint
ALTER TABLE "order_payments" ADD CONSTRAINT "order_payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_payments" ADD CONSTRAINT "order_payments_taken_by_users_id_fk" FOREIGN KEY ("taken_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_payments_order_idx" ON "order_payments" USING btree ("order_id");--> statement-breakpoint
INSERT INTO "order_payments" ("order_id", "method", "status", "amount_cents", "refunded_cents", "provider", "provider_reference", "taken_by", "created_at", "paid_at")
SELECT o."id",
  CASE WHEN o."provider" = 'none' THEN 'FREE'
       WHEN o."provider" = 'box_office' AND o."payment_method" = 'card' THEN 'CARD_TERMINAL'
       WHEN o."provider" = 'box_office' THEN 'CASH'
       ELSE 'CARD' END,
  'PAID', o."amount_cents",
  -- What was given back of it: every refund of the order (a refund of an exchange's difference included).
  least(o."amount_cents", coalesce((SELECT sum(r."amount_cents") FROM "payment_refunds" r WHERE r."session_id" = o."id"), 0)),
  CASE WHEN o."provider" IN ('local', 'stripe') THEN o."provider" END,
  o."provider_payment_id", o."sold_by", coalesce(o."paid_at", o."created_at"), o."paid_at"
FROM "orders" o WHERE o."paid_at" IS NOT NULL;--> statement-breakpoint

-- order refunds: each against the payment of its order
ALTER TABLE "payment_refunds" RENAME TO "order_refunds";--> statement-breakpoint
ALTER TABLE "order_refunds" RENAME COLUMN "session_id" TO "order_id";--> statement-breakpoint
ALTER TABLE "order_refunds" RENAME COLUMN "session_booking_id" TO "line_id";--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "payment_id" uuid;--> statement-breakpoint
UPDATE "order_refunds" r SET "payment_id" = p."id" FROM "order_payments" p WHERE p."order_id" = r."order_id";--> statement-breakpoint
ALTER TABLE "order_refunds" ALTER COLUMN "payment_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_payment_id_order_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."order_payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refunds" RENAME CONSTRAINT "payment_refunds_pkey" TO "order_refunds_pkey";--> statement-breakpoint
ALTER TABLE "order_refunds" RENAME CONSTRAINT "payment_refunds_status_check" TO "order_refunds_status_check";--> statement-breakpoint
ALTER TABLE "order_refunds" RENAME CONSTRAINT "payment_refunds_kind_check" TO "order_refunds_kind_check";--> statement-breakpoint
ALTER TABLE "order_refunds" RENAME CONSTRAINT "payment_refunds_amount_check" TO "order_refunds_amount_check";--> statement-breakpoint
ALTER TABLE "order_refunds" RENAME CONSTRAINT "payment_refunds_session_id_checkout_sessions_id_fk" TO "order_refunds_order_id_orders_id_fk";--> statement-breakpoint
ALTER TABLE "order_refunds" RENAME CONSTRAINT "payment_refunds_session_booking_id_checkout_session_bookings_id_fk" TO "order_refunds_line_id_order_lines_id_fk";--> statement-breakpoint
ALTER TABLE "order_refunds" RENAME CONSTRAINT "payment_refunds_created_by_users_id_fk" TO "order_refunds_created_by_users_id_fk";--> statement-breakpoint
DROP INDEX "payment_refunds_whole_seat_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "order_refunds_whole_line_unique" ON "order_refunds" USING btree ("line_id","payment_id") WHERE "order_refunds"."kind" <> 'exchange';--> statement-breakpoint
ALTER INDEX "payment_refunds_session_idx" RENAME TO "order_refunds_order_idx";--> statement-breakpoint
ALTER INDEX "payment_refunds_line_idx" RENAME TO "order_refunds_line_idx";--> statement-breakpoint
ALTER INDEX "payment_refunds_pending_idx" RENAME TO "order_refunds_pending_idx";--> statement-breakpoint

-- The sales report's triggers, on the renamed tables (src/db/functions/sales_report_*.sql).
CREATE OR REPLACE FUNCTION sales_report_line_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A line written to an order that is not paid is in no figure (its payment, later, notes the order's showtimes).
  IF TG_OP <> 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = NEW.order_id AND o.paid_at IS NOT NULL) THEN
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM sales_report_changed(b.showtime_id) FROM bookings b WHERE b.id = OLD.booking_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM sales_report_changed(b.showtime_id) FROM bookings b WHERE b.id = NEW.booking_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER sales_report_line_change AFTER INSERT OR UPDATE OR DELETE ON order_lines FOR EACH ROW
  EXECUTE FUNCTION sales_report_line_changed();--> statement-breakpoint
CREATE OR REPLACE FUNCTION sales_report_order_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sales_report_changed(b.showtime_id)
  FROM order_lines l JOIN bookings b ON b.id = l.booking_id
  WHERE l.order_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER sales_report_order_update AFTER UPDATE ON orders FOR EACH ROW
  WHEN ((OLD.paid_at IS NOT NULL OR NEW.paid_at IS NOT NULL) AND (OLD.status IS DISTINCT FROM NEW.status
    OR OLD.paid_at IS DISTINCT FROM NEW.paid_at OR OLD.provider IS DISTINCT FROM NEW.provider))
  EXECUTE FUNCTION sales_report_order_changed();--> statement-breakpoint
CREATE OR REPLACE FUNCTION sales_report_refund_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sales_report_changed(b.showtime_id)
  FROM order_lines l JOIN bookings b ON b.id = l.booking_id
  WHERE l.id = CASE WHEN TG_OP = 'DELETE' THEN OLD.line_id ELSE NEW.line_id END;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER sales_report_refund_change AFTER INSERT OR UPDATE OR DELETE ON order_refunds FOR EACH ROW
  EXECUTE FUNCTION sales_report_refund_changed();
