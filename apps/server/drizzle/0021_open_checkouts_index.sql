-- The sweeper looks for open checkouts past their payment window once a minute: on a year of orders a sequential
-- scan of every checkout (45 ms, 8,219 buffers on 500,000 orders); the open ones alone are a handful.
CREATE INDEX "checkout_sessions_open_expires_idx" ON "checkout_sessions" USING btree ("expires_at") WHERE "checkout_sessions"."status" = 'open';
