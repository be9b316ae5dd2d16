import { and, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/database.ts';
import { liveHold } from '../../db/live-booking.ts';
import { bookings } from '../../db/schema/index.ts';
import { conflict } from '../../errors.ts';

/** Bookings a customer paid for (or had refunded): they keep a showtime from being deleted forever. */
const sold = inArray(bookings.status, ['CONFIRMED', 'REFUNDED']);

/** Holds inside a live payment window: the customer is on the payment page right now. */
const paying = and(liveHold, isNotNull(bookings.checkoutSessionId)) as SQL;

/**
 * Throws 409 has_sold_tickets when any of the showtimes has a sold ticket or a payment in progress, so nothing a
 * customer paid for is ever lost. Call it inside the deleting transaction after locking the showtime rows.
 */
export async function assertNoTicketsAtStake(tx: Tx, showtimeIds: string[], what: 'movie' | 'showtime') {
  if (showtimeIds.length === 0) return;
  const [row] = await tx
    .select({
      sold: sql<number>`count(*) filter (where ${sold})`.mapWith(Number),
      paying: sql<number>`count(*) filter (where ${paying})`.mapWith(Number),
    })
    .from(bookings)
    .where(inArray(bookings.showtimeId, showtimeIds));
  if (row!.sold > 0) {
    throw conflict(`This ${what} has sold tickets and cannot be deleted`, 'has_sold_tickets');
  }
  if (row!.paying > 0) {
    throw conflict(
      `A customer is paying for seats of this ${what} right now; it cannot be deleted`,
      'has_sold_tickets',
    );
  }
}

/**
 * Deletes the bookings that hold nothing at stake (expired, cancelled, plain holds). The status filter is
 * re-checked under the row lock, so a booking confirmed meanwhile survives and the showtime's delete then fails
 * on the foreign key instead of losing it.
 */
export async function deleteReleasableBookings(tx: Tx, showtimeIds: string[]) {
  if (showtimeIds.length === 0) return;
  await tx
    .delete(bookings)
    .where(and(inArray(bookings.showtimeId, showtimeIds), sql`not (${sold})`, sql`not (${paying})`));
}
