import { and, eq, gt, inArray, or, sql, type SQL } from 'drizzle-orm';
import { bookings } from './schema/index.ts';

/**
 * A hold that still counts: HELD and not yet expired. Holds stop counting at `expiresAt` exactly, in every query,
 * whether or not the sweeper has marked them EXPIRED yet (DESIGN §2, lazy expiry).
 */
export const liveHold: SQL = and(eq(bookings.status, 'HELD'), gt(bookings.expiresAt, sql`now()`))!;

/** A booking that occupies its seat: confirmed, or a live hold. The one definition every query uses. */
export const liveBooking: SQL = or(eq(bookings.status, 'CONFIRMED'), liveHold)!;

/**
 * `liveHold` (and, given a customer, that it is theirs) for a statement that names its bookings by their ids: inside
 * `IS TRUE`, so that only the primary key can serve it, never a partial index over every live hold nor the
 * customer's index over all their bookings (see db/status-is.ts; docs/decisions/029).
 */
export const liveHoldByKey = (userId?: string): SQL =>
  userId === undefined
    ? sql`(${liveHold}) is true`
    : sql`(${bookings.userId} = ${userId} and ${liveHold}) is true`;

/**
 * The live bookings of these seats of one showtime, found as `hold_seats` finds them: through the partial unique index
 * over live bookings (`HELD or CONFIRMED` is its own condition), with whether a hold still counts inside `IS TRUE`, so
 * that the expiry index (every live hold there is) cannot serve it.
 */
export const liveBookingOfSeats = (showtimeId: string, seatIds: string[]): SQL =>
  and(
    eq(bookings.showtimeId, showtimeId),
    inArray(bookings.seatId, seatIds),
    sql`(${bookings.status} = 'HELD' or ${bookings.status} = 'CONFIRMED')`,
    sql`(${liveBooking}) is true`,
  )!;
