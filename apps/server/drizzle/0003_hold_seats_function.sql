-- A hold in one statement (one round trip instead of eight), with the rules of docs/decisions/004: the showtime
-- exists and has not started, every seat is in its hall, one customer's simultaneous holds take turns (an advisory
-- lock; each statement after it sees what the other committed), at most p_max_live live holds per customer and
-- showtime, expired-but-unswept holds of these seats retired first, then one INSERT … ON CONFLICT DO NOTHING in
-- seat order: the partial unique index decides.
-- A refusal is an answer, not an error: one row with the reason as `outcome` and its JSON as `detail` (an error
-- would make the connection pool throw the connection away). Seats lost to someone else undo the ones won: all or
-- nothing.
CREATE FUNCTION hold_seats(
  p_showtime uuid,
  p_user uuid,
  p_seats uuid[],
  p_minutes double precision,
  p_max_live integer
) RETURNS TABLE (outcome text, booking_id uuid, held_seat_id uuid, held_until timestamptz, detail text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_hall uuid;
  v_price integer;
  v_started boolean;
  v_foreign uuid[];
  v_held integer;
  v_ids uuid[];
  v_won uuid[];
  v_until timestamptz;
  v_taken uuid[];
BEGIN
  SELECT s.auditorium_id, s.price_cents, s.starts_at <= now()
    INTO v_hall, v_price, v_started
    FROM showtimes s
   WHERE s.id = p_showtime;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'showtime_not_found', NULL::uuid, NULL::uuid, NULL::timestamptz, NULL::text;
    RETURN;
  END IF;
  IF v_started THEN
    RETURN QUERY SELECT 'showtime_started', NULL::uuid, NULL::uuid, NULL::timestamptz, NULL::text;
    RETURN;
  END IF;

  SELECT array_agg(x ORDER BY x) INTO v_foreign
    FROM unnest(p_seats) AS x
   WHERE NOT EXISTS (SELECT 1 FROM seats st WHERE st.id = x AND st.auditorium_id = v_hall);
  IF v_foreign IS NOT NULL THEN
    RETURN QUERY SELECT 'seats_not_in_hall', NULL::uuid, NULL::uuid, NULL::timestamptz, array_to_json(v_foreign)::text;
    RETURN;
  END IF;

  PERFORM pg_advisory_xact_lock(hashtext(p_user::text), hashtext(p_showtime::text));
  SELECT count(*) INTO v_held
    FROM bookings b
   WHERE b.showtime_id = p_showtime AND b.user_id = p_user AND b.status = 'HELD' AND b.expires_at > now();
  IF v_held + cardinality(p_seats) > p_max_live THEN
    RETURN QUERY SELECT 'hold_limit', NULL::uuid, NULL::uuid, NULL::timestamptz, v_held::text;
    RETURN;
  END IF;

  UPDATE bookings b
     SET status = 'EXPIRED', updated_at = now()
   WHERE b.status = 'HELD'
     AND b.id IN (
       SELECT e.id FROM bookings e
        WHERE e.showtime_id = p_showtime AND e.seat_id = ANY (p_seats)
          AND e.status = 'HELD' AND e.expires_at <= now()
        ORDER BY e.seat_id
          FOR UPDATE);

  WITH won AS (
    INSERT INTO bookings AS b (showtime_id, seat_id, user_id, status, expires_at, price_cents)
    SELECT p_showtime, x, p_user, 'HELD', now() + p_minutes * interval '1 minute', v_price
      FROM unnest(p_seats) AS x
     ORDER BY x
    ON CONFLICT (showtime_id, seat_id) WHERE status IN ('HELD', 'CONFIRMED') DO NOTHING
    RETURNING b.id, b.seat_id, b.expires_at
  )
  SELECT array_agg(w.id ORDER BY w.seat_id), array_agg(w.seat_id ORDER BY w.seat_id), max(w.expires_at)
    INTO v_ids, v_won, v_until
    FROM won w;
  IF coalesce(cardinality(v_won), 0) < cardinality(p_seats) THEN
    -- All or nothing: the seats this hold did get go back. Nobody saw them (not committed yet); a hold waiting
    -- for one of them finds it free once this statement ends.
    DELETE FROM bookings b WHERE b.id = ANY (v_ids);
    SELECT array_agg(x ORDER BY x) INTO v_taken
      FROM unnest(p_seats) AS x
     WHERE x <> ALL (coalesce(v_won, '{}'::uuid[]));
    RETURN QUERY SELECT 'seat_unavailable', NULL::uuid, NULL::uuid, NULL::timestamptz, array_to_json(v_taken)::text;
    RETURN;
  END IF;

  RETURN QUERY SELECT 'held', u.id, u.seat, v_until, NULL::text FROM unnest(v_ids, v_won) AS u(id, seat);
END
$$;
