-- Sales report (issue 22, decision 028): the figures of showtimes still on sale are kept like those of showtimes that are over, so a report of the coming days no longer sums every sold seat on each request. The triggers of migration 0018 now note a change to any showtime's sales, not only to one that is over, and only changes that can move the figures: a hold that ends without a sale (expired, released, withdrawn by the hold itself) and a line of an order nobody paid are not noted, so the hold path writes nothing more. One row per showtime and transaction: a payment of four seats notes its showtime once.
DELETE FROM "sales_report_changes" a USING "sales_report_changes" b
  WHERE a.ctid < b.ctid AND a.showtime_id = b.showtime_id AND a.xid = b.xid;--> statement-breakpoint
DROP INDEX "sales_report_changes_showtime_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "sales_report_changes_showtime_xid_unique" ON "sales_report_changes" USING btree ("showtime_id","xid");--> statement-breakpoint
CREATE OR REPLACE FUNCTION sales_report_changed(p_showtime uuid) RETURNS void LANGUAGE sql AS $$
  INSERT INTO sales_report_changes (showtime_id, xid) VALUES (p_showtime, pg_current_xact_id())
  ON CONFLICT DO NOTHING
$$;--> statement-breakpoint
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
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION sales_report_line_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A line written to an order that is not paid is in no figure (its payment, later, notes the order's showtimes).
  IF TG_OP <> 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM checkout_sessions cs WHERE cs.id = NEW.session_id AND cs.paid_at IS NOT NULL) THEN
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
DROP TRIGGER sales_report_order_update ON checkout_sessions;--> statement-breakpoint
CREATE TRIGGER sales_report_order_update AFTER UPDATE ON checkout_sessions FOR EACH ROW
  WHEN ((OLD.paid_at IS NOT NULL OR NEW.paid_at IS NOT NULL) AND (OLD.status IS DISTINCT FROM NEW.status
    OR OLD.paid_at IS DISTINCT FROM NEW.paid_at OR OLD.provider IS DISTINCT FROM NEW.provider))
  EXECUTE FUNCTION sales_report_order_changed();
