-- A confirmation, a gift card's email or a refund notice whose writing failed after its payment or refund committed
-- (a database outage, a crash between the commit and the email) is written by the mail sweep (decision 056), which
-- looks once a minute at the orders, the gift cards sold and the refunds of the last days: these keep each look an
-- index range. Each is on a creation time, which no update changes.
CREATE INDEX "gift_cards_sold_idx" ON "gift_cards" USING btree ("created_at") WHERE "gift_cards"."order_id" is not null;--> statement-breakpoint
CREATE INDEX "order_refunds_notice_idx" ON "order_refunds" USING btree ("created_at") WHERE "order_refunds"."kind" <> 'lost_seat';--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at");