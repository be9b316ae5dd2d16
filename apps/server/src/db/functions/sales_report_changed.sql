-- sales_report_changed: notes that a showtime's sales changed in this transaction (one row per showtime and
-- transaction), so the sales report's kept figures read before it are computed again (decisions 027, 028). Called by
-- the report's triggers (sales_report_*_changed); this file is its current text, as src/db/functions.test.ts checks.
CREATE OR REPLACE FUNCTION sales_report_changed(p_showtime uuid) RETURNS void LANGUAGE sql AS $$
  INSERT INTO sales_report_changes (showtime_id, xid) VALUES (p_showtime, pg_current_xact_id())
  ON CONFLICT DO NOTHING
$$;
