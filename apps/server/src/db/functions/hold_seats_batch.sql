-- hold_seats_batch: the holds that reached one server process in the same moment, in one round trip (decision 062).
-- Each is still a hold of its own: hold_seats called as the server calls it alone, in a transaction of its own that
-- commits before the next begins, so locks, limits, now() and the partial unique index work exactly as for holds sent
-- one by one, and no hold waits for another's commit (none can deadlock with another of the same call).
--
-- Hold i asks for p_seats[from_i .. from_i + p_seat_counts[i] - 1] (the seats of the holds one after another) of
-- p_showtimes[i] for p_users[i] from p_addresses[i]; the limits are the same for all. p_results answers in the same
-- order: for each hold, hold_seats' rows as [outcome, booking_id, held_seat_id, held_until, detail] arrays, or
-- {"error": SQLSTATE} when the hold raised (nothing of it is kept; the server then runs it alone to answer it as a
-- hold alone is answered).
--
-- A procedure, so that it may commit between holds: it must be CALLed outside a transaction block, and may not have
-- SET clauses of its own (hold_seats keeps its own).
CREATE OR REPLACE PROCEDURE hold_seats_batch(
  p_showtimes uuid[],
  p_users uuid[],
  p_seat_counts integer[],
  p_seats uuid[],
  p_addresses text[],
  p_minutes double precision,
  p_max_live integer,
  p_max_user integer,
  p_max_address integer,
  p_accessible_release_minutes integer,
  INOUT p_results jsonb DEFAULT NULL
)
LANGUAGE plpgsql
AS $$
DECLARE
  v_from integer := 1;
  v_rows jsonb;
BEGIN
  p_results := '[]'::jsonb;
  FOR i IN 1 .. coalesce(cardinality(p_showtimes), 0) LOOP
    BEGIN
      SELECT jsonb_agg(jsonb_build_array(h.outcome, h.booking_id, h.held_seat_id, h.held_until, h.detail))
        INTO v_rows
        FROM hold_seats(p_showtimes[i], p_users[i], p_seats[v_from : v_from + p_seat_counts[i] - 1], p_minutes,
                        p_max_live, p_max_user, p_addresses[i], p_max_address, p_accessible_release_minutes) h;
      p_results := p_results || jsonb_build_array(v_rows);
    EXCEPTION WHEN OTHERS THEN
      p_results := p_results || jsonb_build_array(jsonb_build_object('error', SQLSTATE));
    END;
    COMMIT;
    v_from := v_from + p_seat_counts[i];
  END LOOP;
END
$$;
