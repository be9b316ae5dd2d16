-- The sales report's trigger on an order's lines: a line of a paid order written, changed (an exchange) or deleted
-- notes its booking's showtime. A line of an order nobody paid is in no figure; the payment notes it later.
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
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER sales_report_line_change AFTER INSERT OR UPDATE OR DELETE ON order_lines FOR EACH ROW
  EXECUTE FUNCTION sales_report_line_changed();
