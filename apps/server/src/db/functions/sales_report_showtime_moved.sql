-- The sales report's trigger on showtimes: a showtime moved to another time drops its kept figures (the day it is
-- reported on may have changed); the next report computes them again.
CREATE OR REPLACE FUNCTION sales_report_showtime_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM sales_report_showtimes WHERE showtime_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER sales_report_showtime_moved AFTER UPDATE OF starts_at, ends_at ON showtimes FOR EACH ROW
  EXECUTE FUNCTION sales_report_showtime_moved();
