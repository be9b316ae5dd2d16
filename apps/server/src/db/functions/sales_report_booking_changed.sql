-- The sales report's trigger on bookings: a sold booking's status, check-in or showtime changed, or it was deleted,
-- so its showtime's kept figures (and the new showtime's, when it moved) are computed again. A hold that ends without
-- a sale is not noted, so the hold path writes nothing more (decision 028).
CREATE OR REPLACE FUNCTION sales_report_booking_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A hold that ends without a sale moves no figure: only an order's lines count, and a held seat has none paid.
  IF OLD.status = 'HELD' THEN
    IF TG_OP = 'DELETE' THEN
      RETURN NULL;
    ELSIF NEW.status <> 'CONFIRMED' AND NEW.checked_in_at IS NOT DISTINCT FROM OLD.checked_in_at THEN
      RETURN NULL;
    END IF;
  END IF;
  PERFORM sales_report_changed(OLD.showtime_id);
  IF TG_OP = 'UPDATE' AND NEW.showtime_id IS DISTINCT FROM OLD.showtime_id THEN
    PERFORM sales_report_changed(NEW.showtime_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER sales_report_booking_update AFTER UPDATE ON bookings FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.checked_in_at IS DISTINCT FROM NEW.checked_in_at
    OR OLD.showtime_id IS DISTINCT FROM NEW.showtime_id)
  EXECUTE FUNCTION sales_report_booking_changed();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER sales_report_booking_delete AFTER DELETE ON bookings FOR EACH ROW
  EXECUTE FUNCTION sales_report_booking_changed();
