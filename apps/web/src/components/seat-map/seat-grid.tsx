import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { rowLabel, seatLabel } from '@cinema/contract/constants';
import { dataStatus, viewWords, type SeatCell, type SeatView } from './seat-view';

export const seatClasses: Record<SeatView, string> = {
  AVAILABLE: 'border-slate-400 bg-panel-2 text-slate-100 hover:border-gold hover:bg-line',
  SELECTED: 'border-gold bg-gold text-ink font-bold',
  HELD: 'border-slate-600 bg-slate-700 text-slate-300 cursor-not-allowed',
  MINE: 'border-rose-300 bg-accent-strong text-white font-bold',
  CONFIRMED: 'border-red-900 bg-red-950 text-red-200 line-through cursor-not-allowed',
};

/**
 * The hall by row, front (screen) first. One seat is in the tab order at a time (roving tabindex): the arrow
 * keys move between seats, Home and End jump along the row, Enter and Space press the seat.
 */
export function SeatGrid({ seats, onPress }: { seats: SeatCell[]; onPress: (seat: SeatCell) => void }) {
  const rows = useMemo(() => {
    const byRow = new Map<number, SeatCell[]>();
    for (const s of seats) byRow.set(s.row, [...(byRow.get(s.row) ?? []), s]);
    return [...byRow.entries()].sort(([a], [b]) => a - b).map(([row, cells]) => ({ row, cells }));
  }, [seats]);
  const [focusId, setFocusId] = useState<string | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const tabStop = focusId && seats.some((s) => s.id === focusId) ? focusId : seats[0]?.id;

  const moveFocus = (id: string | undefined) => {
    if (!id) return;
    setFocusId(id);
    buttons.current.get(id)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, r: number, c: number) => {
    const row = rows[r]!.cells;
    const nearestIn = (other: SeatCell[] | undefined) => {
      if (!other) return undefined;
      const target = row[c]!.number;
      return other.reduce((best, s) =>
        Math.abs(s.number - target) < Math.abs(best.number - target) ? s : best,
      ).id;
    };
    const moves: Record<string, () => string | undefined> = {
      ArrowLeft: () => row[c - 1]?.id,
      ArrowRight: () => row[c + 1]?.id,
      ArrowUp: () => nearestIn(rows[r - 1]?.cells),
      ArrowDown: () => nearestIn(rows[r + 1]?.cells),
      Home: () => row[0]?.id,
      End: () => row[row.length - 1]?.id,
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    moveFocus(move());
  };

  return (
    <div className="overflow-x-auto pb-2">
      <div className="mx-auto flex w-max flex-col items-center gap-1.5" role="group" aria-label="Seats">
        {rows.map(({ row, cells }, r) => (
          <div
            key={row}
            className="flex items-center gap-1.5"
            role="group"
            aria-label={`Row ${rowLabel(row)}`}
          >
            <span aria-hidden className="w-6 text-right text-xs font-semibold text-muted">
              {rowLabel(row)}
            </span>
            {cells.map((seat, c) => {
              const unavailable = seat.view === 'HELD' || seat.view === 'CONFIRMED';
              return (
                <button
                  key={seat.id}
                  ref={(el) => {
                    if (el) buttons.current.set(seat.id, el);
                    else buttons.current.delete(seat.id);
                  }}
                  type="button"
                  data-seat-id={seat.id}
                  data-status={dataStatus(seat.view)}
                  data-mine={seat.view === 'MINE' ? 'true' : undefined}
                  aria-label={`${seatLabel(seat, { style: 'inline' })}, ${viewWords[seat.view]}`}
                  aria-disabled={unavailable || undefined}
                  tabIndex={seat.id === tabStop ? 0 : -1}
                  onFocus={() => setFocusId(seat.id)}
                  onKeyDown={(e) => onKeyDown(e, r, c)}
                  onClick={() => onPress(seat)}
                  className={`h-7 w-7 shrink-0 rounded-t-lg rounded-b-sm border text-[11px] leading-none transition-colors ${seatClasses[seat.view]}`}
                >
                  {seat.number}
                </button>
              );
            })}
            <span aria-hidden className="w-6 text-left text-xs font-semibold text-muted">
              {rowLabel(row)}
            </span>
          </div>
        ))}
      </div>
    </div>
  );
}
