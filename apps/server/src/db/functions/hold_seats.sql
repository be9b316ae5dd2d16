-- hold_seats: THE hold, one statement per request (decision 004). This file is its current text; every migration
-- that changes the function copies it whole (`npm run db:function -- hold_seats <name>`), and
-- src/db/functions.test.ts fails when the database holds anything else.
--
-- Outcomes (the `outcome` column; the server's HoldOutcome type): 'held' (one row per booking), or one refusal row:
-- 'showtime_not_found', 'showtime_started', 'seats_not_in_hall' (detail: JSON array of the seat ids),
-- 'seat_blocked', 'companion_needs_wheelchair', 'sofa_pair' (detail: JSON array of the seat ids at fault),
-- 'hold_limit' (detail: JSON {scope: 'showtime' | 'customer' | 'address', held, max}), 'seat_unavailable' (detail:
-- JSON array of the taken seat ids, in seat order).
--
-- Seat rules (DESIGN §6.2): a blocked seat is never held online; a companion seat only with a wheelchair space in the
-- same hold, until the showtime's accessible seats are released (DESIGN §7.5: p_accessible_release_minutes before the
-- start, at the showtime's accessible_released_at when staff release them earlier, or once every other seat is held
-- or sold), when it sells alone as a standard seat; a sofa only whole (its partner in the same hold, or already held
-- by the same customer); a seat retired from the layout is no longer in the hall.
--
-- Limits (DESIGN §6.1): at most p_max_live live held seats of one customer in one showtime, p_max_user across all
-- showtimes, and p_max_address from one client address across all its accounts (p_address NULL: no address limit).
-- A refused hold holds nothing.
CREATE OR REPLACE FUNCTION hold_seats(
  p_showtime uuid,
  p_user uuid,
  p_seats uuid[],
  p_minutes double precision,
  p_max_live integer,
  p_max_user integer,
  p_address text,
  p_max_address integer,
  p_accessible_release_minutes integer DEFAULT 60
) RETURNS TABLE (outcome text, booking_id uuid, held_seat_id uuid, held_until timestamptz, detail text)
LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  v_hall uuid;
  v_price integer;
  v_started boolean;
  v_foreign uuid[];
  v_held integer;
  v_held_here integer;
  v_held_address integer;
  v_ids uuid[];
  v_won uuid[];
  v_until timestamptz;
  v_taken uuid[];
  v_seat uuid;
  v_booking uuid;
  v_live boolean;
  v_expired uuid[];
  v_locked boolean;
  v_blocked boolean;
  v_type text;
  v_pair text;
  v_blocked_seats uuid[];
  v_companions uuid[];
  v_wheelchair boolean := false;
  v_half_sofas uuid[];
  v_partner uuid;
  v_released boolean;
BEGIN
  SELECT s.hall_id, s.price_cents, s.starts_at <= now(),
         s.starts_at - make_interval(mins => p_accessible_release_minutes) <= now()
           OR coalesce(s.accessible_released_at <= now(), false)
    INTO v_hall, v_price, v_started, v_released
    FROM showtimes s
   WHERE s.id = p_showtime;
  IF NOT FOUND THEN
    outcome := 'showtime_not_found';
    RETURN NEXT;
    RETURN;
  END IF;
  IF v_started THEN
    outcome := 'showtime_started';
    RETURN NEXT;
    RETURN;
  END IF;

  -- Every seat, in seat order, in one statement (one snapshot): is it in the hall, and does someone already hold or
  -- own it (its one HELD or CONFIRMED booking, through the partial unique index, committed and not expired)? Each
  -- seat is looked at by its key in a lateral subquery of its own, so the plan is one key lookup per seat whatever
  -- the statistics say: it cannot be planned into reading the whole hall or every hold of the showtime, as one join
  -- over all the seats was when the table's statistics were out of date. Planned once, for any showtime
  -- (plan_cache_mode above): a plan made for this showtime's own value, as a connection's first calls otherwise are,
  -- follows statistics that may have seen it with no booking, and PostgreSQL 15 then read every booking of the
  -- showtime through bookings_showtime_idx (600 per seat in a rush; keyed-plans.test.ts). One statement, not two
  -- per seat: most of a hold's time in PostgreSQL was starting the executor for each small statement (issue 32).
  FOR v_seat, v_blocked, v_type, v_pair, v_booking, v_live IN
    SELECT x, st.blocked, st.type, st.pair_id, b.id, b.live
      FROM unnest(p_seats) AS x
      LEFT JOIN LATERAL (
        SELECT st.blocked, st.type, st.pair_id
          FROM seats st
         WHERE st.id = x AND st.hall_id = v_hall AND st.retired_at IS NULL
         LIMIT 1
      ) st ON true
      LEFT JOIN LATERAL (
        SELECT b.id, b.status = 'CONFIRMED' OR b.expires_at > now() AS live
          FROM bookings b
         WHERE b.showtime_id = p_showtime AND b.seat_id = x AND (b.status = 'HELD' OR b.status = 'CONFIRMED')
         LIMIT 1
      ) b ON true
     ORDER BY x
  LOOP
    IF v_type IS NULL THEN
      v_foreign := v_foreign || v_seat;
      CONTINUE;
    END IF;
    IF v_blocked THEN
      v_blocked_seats := v_blocked_seats || v_seat;
    END IF;
    IF v_type = 'COMPANION' THEN
      v_companions := v_companions || v_seat;
    ELSIF v_type = 'WHEELCHAIR' THEN
      v_wheelchair := true;
    ELSIF v_type = 'SOFA' THEN
      -- Its partner: the other seat of the hall with the same pair (seats_pair_idx).
      SELECT st.id INTO v_partner
        FROM seats st
       WHERE st.hall_id = v_hall AND st.pair_id = v_pair AND st.id <> v_seat AND st.retired_at IS NULL;
      IF v_partner IS NULL OR NOT (v_partner = ANY (p_seats) OR EXISTS (
           SELECT 1 FROM bookings b
            WHERE b.showtime_id = p_showtime AND b.seat_id = v_partner AND (b.status = 'HELD' OR b.status = 'CONFIRMED')
              AND b.user_id = p_user AND b.status = 'HELD' AND b.expires_at > now())) THEN
        v_half_sofas := v_half_sofas || v_seat;
      END IF;
    END IF;
    IF v_live THEN
      v_taken := v_taken || v_seat;
    ELSIF v_booking IS NOT NULL THEN
      v_expired := v_expired || v_booking; -- a hold that ran out and was not swept yet
    END IF;
  END LOOP;
  IF v_foreign IS NOT NULL THEN
    outcome := 'seats_not_in_hall';
    detail := array_to_json(v_foreign)::text;
    RETURN NEXT;
    RETURN;
  END IF;
  IF v_blocked_seats IS NOT NULL THEN
    outcome := 'seat_blocked';
    detail := array_to_json(v_blocked_seats)::text;
    RETURN NEXT;
    RETURN;
  END IF;
  IF v_companions IS NOT NULL AND NOT v_wheelchair AND NOT v_released THEN
    -- Released too once no other seat is left: no standard, premium or sofa seat of the hall free (looked at only
    -- here, for a companion seat asked for alone).
    v_released := NOT EXISTS (
      SELECT 1
        FROM seats st
       WHERE st.hall_id = v_hall AND st.retired_at IS NULL AND NOT st.blocked
         AND st.type <> 'WHEELCHAIR' AND st.type <> 'COMPANION'
         AND NOT EXISTS (
           SELECT 1 FROM bookings b
            WHERE b.showtime_id = p_showtime AND b.seat_id = st.id AND (b.status = 'HELD' OR b.status = 'CONFIRMED')
              AND (b.status = 'CONFIRMED' OR b.expires_at > now())));
  END IF;
  IF v_companions IS NOT NULL AND NOT v_wheelchair AND NOT v_released THEN
    outcome := 'companion_needs_wheelchair';
    detail := array_to_json(v_companions)::text;
    RETURN NEXT;
    RETURN;
  END IF;
  IF v_half_sofas IS NOT NULL THEN
    outcome := 'sofa_pair';
    detail := array_to_json(v_half_sofas)::text;
    RETURN NEXT;
    RETURN;
  END IF;
  IF v_taken IS NOT NULL THEN
    -- Every seat was looked at in the same moment, so the refusal names every seat of the hold taken then, in seat
    -- order.
    outcome := 'seat_unavailable';
    detail := array_to_json(v_taken)::text;
    RETURN NEXT;
    RETURN;
  END IF;

  -- The limits count live holds across showtimes, so the holds of one customer, and those from one address, are
  -- counted and made one after the other: each under a lock of its own, always the address's before the customer's,
  -- so that two holds never wait for each other the other way round. (Each lock is taken in an assignment, which
  -- PostgreSQL evaluates without starting the executor as PERFORM would; its value says nothing.)
  IF p_address IS NOT NULL THEN
    v_locked := pg_advisory_xact_lock(hashtext('hold_seats:address'), hashtext(p_address)) IS NULL;
  END IF;
  v_locked := pg_advisory_xact_lock(hashtext('hold_seats:customer'), hashtext(p_user::text)) IS NULL;
  -- Through the customer's own bookings (bookings_user_idx), always: `IS TRUE` keeps the status and the expiry out
  -- of the index search and out of reach of a partial index, so the planner cannot read every live hold there is
  -- (bookings_held_expiry_idx, bookings_live_seat_unique) instead.
  SELECT count(*) FILTER (WHERE b.showtime_id = p_showtime), count(*)
    INTO v_held_here, v_held
    FROM bookings b
   WHERE b.user_id = p_user
     AND (b.status = 'HELD' AND b.expires_at > now()) IS TRUE;
  IF v_held_here + cardinality(p_seats) > p_max_live THEN
    outcome := 'hold_limit';
    detail := json_build_object('scope', 'showtime', 'held', v_held_here, 'max', p_max_live)::text;
    RETURN NEXT;
    RETURN;
  END IF;
  IF v_held + cardinality(p_seats) > p_max_user THEN
    outcome := 'hold_limit';
    detail := json_build_object('scope', 'customer', 'held', v_held, 'max', p_max_user)::text;
    RETURN NEXT;
    RETURN;
  END IF;
  IF p_address IS NOT NULL THEN
    -- The live holds from this address, by their key (bookings_held_address_idx, an expression over the status).
    SELECT count(*) INTO v_held_address
      FROM bookings b
     WHERE (CASE WHEN b.status = 'HELD' THEN b.client_address END) = p_address
       AND b.client_address IS NOT NULL AND b.expires_at > now();
    IF v_held_address + cardinality(p_seats) > p_max_address THEN
      outcome := 'hold_limit';
      detail := json_build_object('scope', 'address', 'held', v_held_address, 'max', p_max_address)::text;
      RETURN NEXT;
      RETURN;
    END IF;
  END IF;

  -- Holds of these seats that ran out but were not swept yet are retired first, in seat order; each only if it
  -- still is such a hold (the sweeper or another hold may have retired it meanwhile).
  FOREACH v_booking IN ARRAY coalesce(v_expired, '{}') LOOP
    UPDATE bookings b
       SET status = 'EXPIRED', updated_at = now()
     WHERE b.id = v_booking AND (b.status = 'HELD' AND b.expires_at <= now()) IS TRUE;
  END LOOP;

  WITH won AS (
    INSERT INTO bookings AS b (showtime_id, seat_id, user_id, status, expires_at, price_cents, client_address)
    SELECT p_showtime, x, p_user, 'HELD', now() + p_minutes * interval '1 minute', v_price, p_address
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
    outcome := 'seat_unavailable';
    detail := array_to_json(v_taken)::text;
    RETURN NEXT;
    RETURN;
  END IF;

  outcome := 'held';
  held_until := v_until;
  FOR i IN 1 .. cardinality(v_ids) LOOP
    booking_id := v_ids[i];
    held_seat_id := v_won[i];
    RETURN NEXT;
  END LOOP;
END
$$;
