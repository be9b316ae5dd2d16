-- The kitchen screen (DESIGN §7.2): its last column reads the orders handed over in the last hours.
CREATE INDEX "orders_handed_over_at_idx" ON "orders" USING btree ("handed_over_at") WHERE "orders"."handed_over_at" is not null;
