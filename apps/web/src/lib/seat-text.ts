import type { SeatType } from '@cinema/contract';
import { rowLabel } from '@cinema/contract/constants';
import { i18n } from './i18n';
import { displayLocale } from './format';

/** A seat as tickets, lists and the door show it. */
interface SeatPlace {
  row: number;
  number: number;
  rowLabel?: string | null;
  type?: SeatType;
}

const rowOf = (seat: { row?: number; rowLabel?: string | null }) => seat.rowLabel ?? rowLabel(seat.row ?? 0);

/**
 * A seat in the viewer's language: "Row C, Seat 7" (`label`: tickets, lists, the door) or "Row C, seat 7"
 * (`inline`: inside a sentence, a seat button's name).
 */
export function seatName(
  seat: { row?: number; number: number; rowLabel?: string | null },
  style: 'label' | 'inline' = 'label',
): string {
  return i18n.t(`common:seat.${style}`, { row: rowOf(seat), number: seat.number });
}

/** "standard seat", "wheelchair space"… in the viewer's language. */
export const seatTypeName = (type: SeatType): string => i18n.t(`common:seat.types.${type}`);

/** "Row H, Seat 3 · sofa": the seat's label, and its type unless it is a standard seat. */
export function seatWithType(seat: SeatPlace): string {
  const type =
    seat.type && seat.type !== 'STANDARD' ? ` · ${i18n.t(`common:seat.shortTypes.${seat.type}`)}` : '';
  return `${seatName(seat)}${type}`;
}

/** "a", "a and b", "a, b and c" (in the viewer's language). */
export function andList(items: readonly string[]): string {
  if (items.length < 2) return items[0] ?? '';
  if (i18n.resolvedLanguage === 'en' || !i18n.resolvedLanguage) {
    return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
  }
  return new Intl.ListFormat(displayLocale(), { type: 'conjunction' }).format(items);
}

/**
 * Seats in a sentence, row by row: "Row C, seat 5", "Row C, seats 4 and 5", "Row C, seats 4 and 5; Row D, seat 2".
 */
export function seatsInWords(
  seats: readonly { row?: number; number: number; rowLabel?: string | null }[],
): string {
  const rows = new Map<string, number[]>();
  for (const seat of seats) {
    const label = rowOf(seat);
    rows.set(label, [...(rows.get(label) ?? []), seat.number]);
  }
  return [...rows]
    .map(([label, numbers]) =>
      i18n.t('common:seat.inRow', {
        count: numbers.length,
        row: label,
        numbers: andList(numbers.map(String)),
      }),
    )
    .join('; ');
}
