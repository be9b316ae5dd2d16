-- session_users: the session lookup of every signed-in request (plugins/auth.ts; decision 011). This file is its
-- current text; every migration that changes the function copies it whole (`npm run db:function -- session_users
-- <name>`), and src/db/functions.test.ts fails when the database holds anything else.
CREATE OR REPLACE FUNCTION session_users(p_token_hashes text[])
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
