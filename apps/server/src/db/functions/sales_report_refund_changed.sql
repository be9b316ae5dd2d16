-- The sales report's trigger on refunds: a refund written, changed or deleted notes its line's showtime.
CREATE OR REPLACE FUNCTION sales_report_refund_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sales_report_changed(b.showtime_id)
  FROM order_lines l JOIN bookings b ON b.id = l.booking_id
  WHERE l.id = CASE WHEN TG_OP = 'DELETE' THEN OLD.line_id ELSE NEW.line_id END;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER sales_report_refund_change AFTER INSERT OR UPDATE OR DELETE ON order_refunds FOR EACH ROW
  EXECUTE FUNCTION sales_report_refund_changed();
