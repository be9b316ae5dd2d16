import type { SeatMapSeat } from '@cinema/contract';

/** How one seat looks to this customer: the server's status, their selection, and their own holds. */
export type SeatView = 'AVAILABLE' | 'SELECTED' | 'HELD' | 'MINE' | 'CONFIRMED';

export interface SeatCell {
  id: string;
  row: number;
  number: number;
  view: SeatView;
}

export function seatView(
  seat: SeatMapSeat,
  selected: ReadonlySet<string>,
  mine: ReadonlySet<string>,
): SeatView {
  if (seat.status === 'CONFIRMED') return 'CONFIRMED';
  if (seat.status === 'HELD') return seat.heldByMe || mine.has(seat.id) ? 'MINE' : 'HELD';
  return selected.has(seat.id) ? 'SELECTED' : 'AVAILABLE';
}

export const viewWords: Record<SeatView, string> = {
  AVAILABLE: 'available',
  SELECTED: 'selected',
  HELD: 'held',
  MINE: 'held by you',
  CONFIRMED: 'sold',
};

/** The data-status attribute: the user's own hold is HELD too, marked apart by data-mine. */
export const dataStatus = (view: SeatView) => (view === 'MINE' ? 'HELD' : view);
