import type { SeatType } from '@cinema/contract';
import { rowLabel, SEAT_TYPE_NAMES, seatLabel } from '@cinema/contract/constants';

/** A seat as tickets, lists and the door show it. */
interface SeatPlace {
  row: number;
  number: number;
  rowLabel?: string;
  type?: SeatType;
}

/** "Row H, Seat 3 · sofa": the seat's label, and its type unless it is a standard seat. */
export function seatWithType(seat: SeatPlace): string {
  const type =
    seat.type && seat.type !== 'STANDARD' ? ` · ${SEAT_TYPE_NAMES[seat.type].replace(/ seat$/, '')}` : '';
  return `${seatLabel(seat)}${type}`;
}

/** "a", "a and b", "a, b and c". */
export function andList(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * Seats in a sentence, row by row: "Row C, seat 5", "Row C, seats 4 and 5", "Row C, seats 4 and 5; Row D, seat 2".
 */
export function seatsInWords(seats: readonly { row?: number; number: number; rowLabel?: string }[]): string {
  const rows = new Map<string, number[]>();
  for (const seat of seats) {
    const label = seat.rowLabel ?? rowLabel(seat.row ?? 0);
    rows.set(label, [...(rows.get(label) ?? []), seat.number]);
  }
  return [...rows]
    .map(
      ([label, numbers]) =>
        `Row ${label}, seat${numbers.length > 1 ? 's' : ''} ${andList(numbers.map(String))}`,
    )
    .join('; ');
}
