import type { SeatMapSeat } from '@cinema/contract';
import { i18n } from '../../lib/i18n';
import { seatName as placeName, seatTypeName } from '../../lib/seat-text';

/**
 * How one seat looks to this customer: the server's status, their selection, and their own holds. BLOCKED: a house
 * or broken seat, never sold online.
 */
export type SeatView = 'AVAILABLE' | 'SELECTED' | 'HELD' | 'MINE' | 'CONFIRMED' | 'BLOCKED';

/**
 * A seat where the hall's layout puts it, as the seat grid draws it: the seat map's seat with its place and type
 * filled in (`col` counts gaps, from 0), and how it looks to this customer.
 */
export type SeatCell = Required<Pick<SeatMapSeat, 'id' | 'row' | 'number' | 'col' | 'rowLabel' | 'type'>> &
  Pick<SeatMapSeat, 'pairId'> & { view: SeatView };

/** "available", "held by you"…: how a seat's name ends, in the viewer's language. */
export const viewWords = (view: SeatView): string => i18n.t(`common:seat.views.${view}`);

// A hall names hundreds of seats on every render: the words are looked up once per language, then filled in.
const ROW = '\u0000row';
const NUMBER = '\u0000number';
let words: {
  language: string | undefined;
  place: string;
  types: Map<string, string>;
  views: Map<string, string>;
} | null = null;
function seatWords(): NonNullable<typeof words> {
  if (!words || words.language !== i18n.resolvedLanguage) {
    words = {
      language: i18n.resolvedLanguage,
      place: placeName({ rowLabel: ROW, number: NUMBER }, 'inline'),
      types: new Map(),
      views: new Map(),
    };
  }
  return words;
}
const cached = (map: Map<string, string>, key: string, make: () => string) => {
  let text = map.get(key);
  if (text === undefined) map.set(key, (text = make()));
  return text;
};

/** The views a customer cannot choose: a click explains why instead. */
export const isUnavailable = (view: SeatView) =>
  view === 'HELD' || view === 'CONFIRMED' || view === 'BLOCKED';

/** The data-status attribute: the user's own hold is HELD too, marked apart by data-mine. */
export const dataStatus = (view: SeatView) => (view === 'MINE' ? 'HELD' : view);

/**
 * A seat's accessible name: "Row C, seat 7, available"; a seat of another type says so, as in "Row F, seat 12,
 * wheelchair space, available".
 */
export function seatName(seat: Pick<SeatCell, 'row' | 'number' | 'rowLabel' | 'type' | 'view'>): string {
  const w = seatWords();
  const type =
    seat.type === 'STANDARD' ? '' : `, ${cached(w.types, seat.type, () => seatTypeName(seat.type))}`;
  const place = w.place.replace(ROW, seat.rowLabel).replace(NUMBER, String(seat.number));
  return `${place}${type}, ${cached(w.views, seat.view, () => viewWords(seat.view))}`;
}

/** The other seat of a sofa pair, if the seat is half of one. */
export function sofaPartner<T extends Pick<SeatCell, 'id' | 'pairId'>>(
  seats: readonly T[],
  seat: T,
): T | undefined {
  return seat.pairId ? seats.find((s) => s.pairId === seat.pairId && s.id !== seat.id) : undefined;
}
