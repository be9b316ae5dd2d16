-- The session lookup of every signed-in request (plugins/auth.ts), as a function whose plans stay keyed lookups.
-- As one prepared statement joining sessions and users it was planned a few times per connection and then kept one
-- generic plan until the next ANALYZE: planned while the tables were small (a fresh install), that plan walked a
-- whole index of each table for every lookup, however many customers had signed up since (see docs/decisions/011).
-- Now each token is looked up on its own, by the token hash's unique index, and its user by the primary key: two
-- single-table statements with nothing to order or join, whose only plans, with sequential scans ruled out, are
-- those keyed reads. The batch of token hashes and the expiry test are as before; now() is the time of the lookup.
CREATE FUNCTION session_users(p_token_hashes text[])
RETURNS TABLE (token_hash text, user_id uuid, user_name text, user_email text, user_role text, session_id uuid)
LANGUAGE plpgsql STABLE
SET enable_seqscan = off
AS $$
DECLARE
  v_hash text;
  v_session uuid;
  v_user uuid;
BEGIN
  FOREACH v_hash IN ARRAY p_token_hashes LOOP
    SELECT s.id, s.user_id INTO v_session, v_user
      FROM sessions s
     WHERE s.token_hash = v_hash AND s.expires_at > now();
    CONTINUE WHEN NOT FOUND;
    RETURN QUERY SELECT v_hash, u.id, u.name, u.email, u.role, v_session FROM users u WHERE u.id = v_user;
  END LOOP;
END
$$;
