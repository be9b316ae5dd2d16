import { inTimeWindow, localDayTime, type SeatType } from '@cinema/contract';

/** A price card as pricing reads it: its days, its window of the day, its prices. */
export interface CardRules {
  id: string;
  name: string;
  /** ISO weekdays: Monday 1 … Sunday 7. */
  weekdays: number[];
  /** "HH:MM", inclusive. */
  from: string;
  /** "HH:MM" ("24:00" for the end of the day), exclusive. */
  to: string;
  prices: { ticketTypeId: string; seatType: SeatType; priceCents: number }[];
  /** Only for showtimes with this attribute (3D, IMAX); null: for any showtime. */
  attribute: string | null;
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * The card valid at a showtime's start: on its weekday, with the start in [from, to). Where several are, the one
 * with the shortest window (the most particular: a matinee beats an all-day card), then by name.
 */
export function cardValidAt<T extends Pick<CardRules, 'weekdays' | 'from' | 'to' | 'name'>>(
  cards: readonly T[],
  startsAt: Date,
  timeZone: string,
): T | null {
  const { weekday, time } = localDayTime(startsAt, timeZone);
  const valid = cards.filter((c) => c.weekdays.includes(weekday) && inTimeWindow(time, c));
  valid.sort(
    (a, b) =>
      minutes(a.to) - minutes(a.from) - (minutes(b.to) - minutes(b.from)) || a.name.localeCompare(b.name),
  );
  return valid[0] ?? null;
}

/**
 * What a ticket type costs on a seat type under a card; null when the card leaves that price blank: the type is not
 * sold on that seat type (a card pricing Child on standard seats only sells no Child ticket on a premium seat).
 */
export function priceOnCard(card: CardRules, ticketTypeId: string, seatType: SeatType): number | null {
  return (
    card.prices.find((p) => p.ticketTypeId === ticketTypeId && p.seatType === seatType)?.priceCents ?? null
  );
}

/** The lowest price of the default ticket type on a card: what old clients see as a showtime's price. */
export function lowestPrice(card: CardRules, ticketTypeId: string | null): number | null {
  const prices = card.prices.filter((p) => p.ticketTypeId === ticketTypeId).map((p) => p.priceCents);
  return prices.length > 0 ? Math.min(...prices) : null;
}

/**
 * Shares a discount out over prices, in whole cents: each line gets its proportional share rounded down, and the
 * cents left go one each to the lines with the largest remainders (earlier lines first on ties). No line ever gets
 * more than its own price, and the shares add up to exactly `discount` (capped at the total).
 */
export function shareDiscount(prices: readonly number[], discount: number): number[] {
  const total = prices.reduce((a, b) => a + b, 0);
  const amount = Math.max(0, Math.min(Math.round(discount), total));
  if (total === 0 || amount === 0) return prices.map(() => 0);
  const exact = prices.map((p) => (p * amount) / total);
  const shares = exact.map(Math.floor);
  let left = amount - shares.reduce((a, b) => a + b, 0);
  const order = exact
    .map((x, i) => ({ i, rest: x - Math.floor(x) }))
    .filter(({ i }) => shares[i]! < prices[i]!)
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    shares[i]!++;
    left--;
  }
  return shares;
}

/** What a promo code takes off eligible prices: a percent of their sum (rounded to the cent), or a fixed amount. */
export function discountOf(
  eligibleTotal: number,
  promo: { percentOff: number | null; amountOffCents: number | null },
) {
  if (promo.percentOff !== null) return Math.round((eligibleTotal * promo.percentOff) / 100);
  return Math.min(promo.amountOffCents ?? 0, eligibleTotal);
}
