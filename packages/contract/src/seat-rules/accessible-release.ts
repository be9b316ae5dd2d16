// Accessible seats (DESIGN §7.5, issue 37): wheelchair spaces and their companion seats are kept for those who need
// them (best available never offers them; a companion seat is held only with its wheelchair space) until the
// showtime's release moment (`ACCESSIBLE_RELEASE_MINUTES` before the start, or earlier when staff release them for
// that showtime), or until no other seat is left to choose (every standard, premium and sofa seat held or sold).
// From then on they sell as standard seats: best available includes them and a companion seat may be held alone.
// The database applies the same rule to every hold (hold_seats.sql); this copy lets the web app and best available
// agree with it.
import type { SeatType } from './types.ts';

/** The seat types kept for wheelchair users and their companions. */
export const ACCESSIBLE_SEAT_TYPES: readonly SeatType[] = ['WHEELCHAIR', 'COMPANION'];

/**
 * Whether a showtime's accessible seats sell as standard seats now: its release moment (`releaseAt`, ISO or epoch
 * ms; none: never by the clock) has passed, or no seat but accessible ones is free. `seats` are the showtime's seats
 * with whether each is free to choose (blocked, held and sold seats are not).
 */
export function accessibleSeatsReleased(
  releaseAt: string | number | null | undefined,
  seats: Iterable<{ type: SeatType; free: boolean }>,
  now: number = Date.now(),
): boolean {
  if (releaseAt != null && (typeof releaseAt === 'number' ? releaseAt : Date.parse(releaseAt)) <= now)
    return true;
  for (const seat of seats) if (seat.free && !ACCESSIBLE_SEAT_TYPES.includes(seat.type)) return false;
  return true;
}
