// The hold rules the server enforces on the seats a customer asks for (DESIGN §6.2), each a short named function
// that names the offending seats, in the order they were asked for, for the 409's `seatIds`. Ids that are not in
// `seats` are not these rules' business (the hold answers 400 for seats of another hall) and are skipped.
import type { RuleSeat } from './types.ts';

function seatsAskedFor(seats: Iterable<RuleSeat>, selectedIds: Iterable<string>): RuleSeat[] {
  const byId = new Map<string, RuleSeat>();
  for (const seat of seats) byId.set(seat.id, seat);
  return [...new Set(selectedIds)].flatMap((id) => byId.get(id) ?? []);
}

// A partner the customer already holds counts as asked for; a SOFA seat without a pairId or without a partner in
// `seats` is always half a sofa (the layout editor pairs every sofa seat).
/** `sofa_pair`: SOFA seats asked for without their partner (the seat sharing their pairId). */
export function halfSofas(
  seats: Iterable<RuleSeat>,
  selectedIds: Iterable<string>,
  alreadyHeldByMe: Iterable<string> = [],
): string[] {
  const all = [...seats];
  const mine = new Set([...selectedIds, ...alreadyHeldByMe]);
  return seatsAskedFor(all, selectedIds)
    .filter((seat) => seat.type === 'SOFA')
    .filter((seat) => {
      const partner = seat.pairId ? all.find((s) => s.pairId === seat.pairId && s.id !== seat.id) : undefined;
      return !partner || !mine.has(partner.id);
    })
    .map((seat) => seat.id);
}

/** `companion_needs_wheelchair`: COMPANION seats asked for in a hold that has no WHEELCHAIR space. */
export function companionsWithoutWheelchair(
  seats: Iterable<RuleSeat>,
  selectedIds: Iterable<string>,
): string[] {
  const asked = seatsAskedFor(seats, selectedIds);
  if (asked.some((seat) => seat.type === 'WHEELCHAIR')) return [];
  return asked.filter((seat) => seat.type === 'COMPANION').map((seat) => seat.id);
}

/** Blocked seats asked for: never sold online (staff sell them at the counter). */
export function blockedSeats(seats: Iterable<RuleSeat>, selectedIds: Iterable<string>): string[] {
  return seatsAskedFor(seats, selectedIds)
    .filter((seat) => seat.blocked === true)
    .map((seat) => seat.id);
}
