import { and, eq, gt, or, sql, type SQL } from 'drizzle-orm';
import { bookings } from './schema/index.ts';

/**
 * A hold that still counts: HELD and not yet expired. Holds stop counting at `expiresAt` exactly, in every query,
 * whether or not the sweeper has marked them EXPIRED yet (DESIGN §2, lazy expiry).
 */
export const liveHold: SQL = and(eq(bookings.status, 'HELD'), gt(bookings.expiresAt, sql`now()`))!;

/** A booking that occupies its seat: confirmed, or a live hold. The one definition every query uses. */
export const liveBooking: SQL = or(eq(bookings.status, 'CONFIRMED'), liveHold)!;
