-- A booking fee line names the showtime the sales report counts it with (its order's first ticket's), so the report
-- finds a showtime's fees by an index instead of going through every ticket's order (decision 047).
ALTER TABLE "order_lines" ADD COLUMN "fee_showtime_id" uuid;--> statement-breakpoint
CREATE INDEX "order_lines_fee_showtime_idx" ON "order_lines" USING btree ("fee_showtime_id") WHERE "order_lines"."fee_showtime_id" is not null;--> statement-breakpoint
UPDATE "order_lines" f SET "fee_showtime_id" = (
  SELECT b.showtime_id FROM order_lines t JOIN bookings b ON b.id = t.booking_id
  WHERE t.order_id = f.order_id ORDER BY b.showtime_id LIMIT 1
) WHERE f.kind = 'FEE';
