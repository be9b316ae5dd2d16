-- uuid_v7: time-ordered ids for bookings, orders and order lines (decision 028; migration 0024 says why). A version
-- 7 UUID (RFC 9562): the time in milliseconds first, 74 random bits after. This file is its current text, as
-- src/db/functions.test.ts checks.
CREATE OR REPLACE FUNCTION uuid_v7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid())
        PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
        FROM 1 FOR 6),
      52, 1), 53, 1),
    'hex')::uuid
$$;
