-- Undoes 0021. A partial index on an uncommon status is a trap: with statistics taken when few checkouts were open,
-- the planner read lookups by key through it (closing a customer's earlier checkout walked every open checkout of a
-- rush: 1,335 buffers at 500 open). The sweeper's once-a-minute scan of the table (45 ms on a year) costs less.
DROP INDEX "checkout_sessions_open_expires_idx";
