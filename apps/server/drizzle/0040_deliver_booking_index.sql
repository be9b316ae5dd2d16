-- Food and drink orders name the booking whose seat they are brought to (0032). Deleting a booking (a hold that lost part
-- of its seats gives the others back; a deleted showtime takes its releasable bookings along) checks that foreign
-- key, which without an index read every order once per booking.
CREATE INDEX "orders_deliver_booking_idx" ON "orders" USING btree ("deliver_booking_id") WHERE "orders"."deliver_booking_id" is not null;