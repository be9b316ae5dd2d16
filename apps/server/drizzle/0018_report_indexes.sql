-- Sales report (issue 19): the index that finds a span's showtimes by start, and the per-showtime figures of showtimes that are over, computed once and kept until a trigger below records a change to that showtime's sales that they did not see (sales_report_changes, by transaction id, checked against the snapshot they were read in). A year of data then answers from 5,000 small rows instead of joining 1,000,000 bookings.
CREATE TABLE "sales_report_changes" (
	"showtime_id" uuid NOT NULL,
	"xid" "xid8" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_report_lines" (
	"showtime_id" uuid NOT NULL,
	"ticket_type" text,
	"test_mode" boolean NOT NULL,
	"admits" integer NOT NULL,
	"checked_in" integer NOT NULL,
	"gross" bigint NOT NULL,
	"discounts" bigint NOT NULL,
	"refunds" bigint NOT NULL,
	"due" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_report_showtimes" (
	"showtime_id" uuid PRIMARY KEY NOT NULL,
	"snapshot" "pg_snapshot" NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sales_report_lines" ADD CONSTRAINT "sales_report_lines_showtime_id_sales_report_showtimes_showtime_id_fk" FOREIGN KEY ("showtime_id") REFERENCES "public"."sales_report_showtimes"("showtime_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_report_showtimes" ADD CONSTRAINT "sales_report_showtimes_showtime_id_showtimes_id_fk" FOREIGN KEY ("showtime_id") REFERENCES "public"."showtimes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sales_report_changes_showtime_idx" ON "sales_report_changes" USING btree ("showtime_id");--> statement-breakpoint
CREATE INDEX "sales_report_lines_showtime_idx" ON "sales_report_lines" USING btree ("showtime_id");--> statement-breakpoint
CREATE INDEX "showtimes_starts_idx" ON "showtimes" USING btree ("starts_at");--> statement-breakpoint
CREATE INDEX "payment_refunds_line_idx" ON "payment_refunds" USING btree ("session_booking_id");--> statement-breakpoint
CREATE FUNCTION sales_report_changed(p_showtime uuid) RETURNS void LANGUAGE sql AS $$
  INSERT INTO sales_report_changes (showtime_id, xid)
  SELECT id, pg_current_xact_id() FROM showtimes WHERE id = p_showtime AND ends_at < clock_timestamp()
$$;--> statement-breakpoint
CREATE FUNCTION sales_report_booking_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sales_report_changed(OLD.showtime_id);
  IF TG_OP = 'UPDATE' AND NEW.showtime_id IS DISTINCT FROM OLD.showtime_id THEN
    PERFORM sales_report_changed(NEW.showtime_id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sales_report_booking_update AFTER UPDATE ON bookings FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.checked_in_at IS DISTINCT FROM NEW.checked_in_at
    OR OLD.showtime_id IS DISTINCT FROM NEW.showtime_id)
  EXECUTE FUNCTION sales_report_booking_changed();--> statement-breakpoint
CREATE TRIGGER sales_report_booking_delete AFTER DELETE ON bookings FOR EACH ROW
  EXECUTE FUNCTION sales_report_booking_changed();--> statement-breakpoint
CREATE FUNCTION sales_report_line_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM sales_report_changed(b.showtime_id) FROM bookings b WHERE b.id = OLD.booking_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM sales_report_changed(b.showtime_id) FROM bookings b WHERE b.id = NEW.booking_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sales_report_line_change AFTER INSERT OR UPDATE OR DELETE ON checkout_session_bookings FOR EACH ROW
  EXECUTE FUNCTION sales_report_line_changed();--> statement-breakpoint
CREATE FUNCTION sales_report_refund_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sales_report_changed(b.showtime_id)
  FROM checkout_session_bookings l JOIN bookings b ON b.id = l.booking_id
  WHERE l.id = CASE WHEN TG_OP = 'DELETE' THEN OLD.session_booking_id ELSE NEW.session_booking_id END;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sales_report_refund_change AFTER INSERT OR UPDATE OR DELETE ON payment_refunds FOR EACH ROW
  EXECUTE FUNCTION sales_report_refund_changed();--> statement-breakpoint
CREATE FUNCTION sales_report_order_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sales_report_changed(b.showtime_id)
  FROM checkout_session_bookings l JOIN bookings b ON b.id = l.booking_id
  WHERE l.session_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sales_report_order_update AFTER UPDATE ON checkout_sessions FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.paid_at IS DISTINCT FROM NEW.paid_at
    OR OLD.provider IS DISTINCT FROM NEW.provider)
  EXECUTE FUNCTION sales_report_order_changed();--> statement-breakpoint
CREATE FUNCTION sales_report_showtime_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM sales_report_showtimes WHERE showtime_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sales_report_showtime_moved AFTER UPDATE OF starts_at, ends_at ON showtimes FOR EACH ROW
  EXECUTE FUNCTION sales_report_showtime_moved();
