import type { SeatMapSeat } from '@cinema/contract';
import { SEAT_TYPE_NAMES, seatLabel } from '@cinema/contract/constants';

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

export const viewWords: Record<SeatView, string> = {
  AVAILABLE: 'available',
  SELECTED: 'selected',
  HELD: 'held',
  MINE: 'held by you',
  CONFIRMED: 'sold',
  BLOCKED: 'not for sale',
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
  const type = seat.type === 'STANDARD' ? '' : `, ${SEAT_TYPE_NAMES[seat.type]}`;
  return `${seatLabel(seat, { style: 'inline' })}${type}, ${viewWords[seat.view]}`;
}

/** The other seat of a sofa pair, if the seat is half of one. */
export function sofaPartner<T extends Pick<SeatCell, 'id' | 'pairId'>>(
  seats: readonly T[],
  seat: T,
): T | undefined {
  return seat.pairId ? seats.find((s) => s.pairId === seat.pairId && s.id !== seat.id) : undefined;
}
