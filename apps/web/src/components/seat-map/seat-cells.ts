import type { SeatMap, SeatMapSeat } from '@cinema/contract';
import { rowLabel } from '@cinema/contract/constants';
import type { SeatCell, SeatView } from './seat-view';

/** The hall's grid: its rows front to back and its width in columns (gaps counted). */
export interface HallGrid {
  rows: { label: string }[];
  cols: number;
}

/** The grid the seat map carries; a map without one (an older server) is a grid of its seats, rows lettered. */
export function hallGrid(map: SeatMap): HallGrid {
  if (map.layout) return map.layout;
  const rowCount = Math.max(0, ...map.seats.map((s) => s.row));
  return {
    rows: Array.from({ length: rowCount }, (_, r) => ({ label: rowLabel(r + 1) })),
    cols: Math.max(1, ...map.seats.map((s) => (s.col ?? s.number - 1) + 1)),
  };
}

export function seatView(
  seat: SeatMapSeat,
  selected: ReadonlySet<string>,
  mine: ReadonlySet<string>,
): SeatView {
  if (seat.status === 'CONFIRMED') return 'CONFIRMED';
  if (seat.status === 'HELD') return seat.heldByMe || mine.has(seat.id) ? 'MINE' : 'HELD';
  if (seat.status === 'BLOCKED') return 'BLOCKED';
  return selected.has(seat.id) ? 'SELECTED' : 'AVAILABLE';
}

/** Every seat of the map where the grid puts it, as this customer sees it. */
export function seatCells(
  map: SeatMap,
  selected: ReadonlySet<string>,
  mine: ReadonlySet<string>,
): SeatCell[] {
  return map.seats.map((s) => ({
    id: s.id,
    row: s.row,
    number: s.number,
    col: s.col ?? s.number - 1,
    rowLabel: s.rowLabel ?? rowLabel(s.row),
    type: s.type ?? 'STANDARD',
    pairId: s.pairId,
    view: seatView(s, selected, mine),
  }));
}
