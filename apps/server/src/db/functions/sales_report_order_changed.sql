-- The sales report's trigger on orders: a paid order's status, payment or provider changed (paid, refunded, test or
-- not), so the showtimes of its lines are noted. An order never paid moves no figure.
CREATE OR REPLACE FUNCTION sales_report_order_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sales_report_changed(b.showtime_id)
  FROM order_lines l JOIN bookings b ON b.id = l.booking_id
  WHERE l.order_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER sales_report_order_update AFTER UPDATE ON orders FOR EACH ROW
  WHEN ((OLD.paid_at IS NOT NULL OR NEW.paid_at IS NOT NULL) AND (OLD.status IS DISTINCT FROM NEW.status
    OR OLD.paid_at IS DISTINCT FROM NEW.paid_at OR OLD.provider IS DISTINCT FROM NEW.provider))
  EXECUTE FUNCTION sales_report_order_changed();
