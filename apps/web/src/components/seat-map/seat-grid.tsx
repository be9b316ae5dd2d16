import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { seatLook, SeatMark, type SofaHalf } from './seat-face';
import { isMoveKey, placeToward } from './seat-navigation';
import { dataStatus, isUnavailable, seatName, type SeatCell } from './seat-view';

/** The columns of a row: its label either side of the hall's grid of seats and gaps. */
export const rowTemplate = (cols: number) => ({
  gridTemplateColumns: `1.5rem repeat(${cols}, 1.75rem) 1.5rem`,
});

/** Per seat of a row (ordered by column), which half of a sofa it is: two adjacent seats sharing a pairId. */
function sofaHalves(cells: readonly SeatCell[]): (SofaHalf | undefined)[] {
  const halves: (SofaHalf | undefined)[] = cells.map(() => undefined);
  cells.forEach((seat, i) => {
    const next = cells[i + 1];
    if (seat.pairId && halves[i] === undefined && next?.pairId === seat.pairId && next.col === seat.col + 1) {
      halves[i] = 'left';
      halves[i + 1] = 'right';
    }
  });
  return halves;
}

/**
 * The hall by row, front (screen) first, each seat at its column so that aisles show as space. One seat is in the
 * tab order at a time (roving tabindex): the arrow keys move between seats across aisles, Home and End jump along
 * the row, Enter and Space press the seat. The grid scrolls sideways inside its own box when it is wider.
 */
export function SeatGrid({
  rows,
  cols,
  seats,
  onPress,
  label = 'Seats',
  unavailable = isUnavailable,
}: {
  /** The hall's rows, front to back (a row may have no seats: a cross aisle). */
  rows: readonly { label: string }[];
  /** The grid's width in columns, gaps counted. */
  cols: number;
  seats: readonly SeatCell[];
  onPress: (seat: SeatCell) => void;
  label?: string;
  /** Which views cannot be chosen (announced as such); staff may choose a blocked seat. */
  unavailable?: (view: SeatCell['view']) => boolean;
}) {
  const byRow = useMemo(() => {
    const lists: SeatCell[][] = rows.map(() => []);
    for (const s of seats) lists[s.row - 1]?.push(s);
    for (const list of lists) list.sort((a, b) => a.col - b.col);
    return lists;
  }, [rows, seats]);
  const [focusId, setFocusId] = useState<string | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const tabStop = focusId && seats.some((s) => s.id === focusId) ? focusId : byRow.flat()[0]?.id;

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, r: number, i: number) => {
    if (!isMoveKey(event.key)) return;
    event.preventDefault();
    const to = placeToward(byRow, r, i, event.key);
    if (!to) return;
    setFocusId(to.id);
    buttons.current.get(to.id)?.focus();
  };

  const template = rowTemplate(cols);
  return (
    <div className="overflow-x-auto pb-2">
      <div className="mx-auto flex w-max flex-col gap-1.5" role="group" aria-label={label}>
        {rows.map((row, r) => {
          const cells = byRow[r]!;
          // A row without seats (a cross aisle) is space, nothing to announce.
          if (cells.length === 0) return <div key={r} aria-hidden className="h-7" />;
          const halves = sofaHalves(cells);
          return (
            <div
              key={r}
              className="grid items-center gap-1.5"
              style={template}
              role="group"
              aria-label={`Row ${row.label}`}
            >
              <span aria-hidden className="text-right text-xs font-semibold text-muted">
                {row.label}
              </span>
              {cells.map((seat, i) => (
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
                  data-type={seat.type}
                  data-col={seat.col}
                  aria-label={seatName(seat)}
                  aria-disabled={unavailable(seat.view) || undefined}
                  tabIndex={seat.id === tabStop ? 0 : -1}
                  style={{ gridColumnStart: seat.col + 2 }}
                  onFocus={() => setFocusId(seat.id)}
                  onKeyDown={(e) => onKeyDown(e, r, i)}
                  onClick={() => onPress(seat)}
                  className={seatLook(seat.type, seat.view, halves[i])}
                >
                  <SeatMark type={seat.type} view={seat.view} number={seat.number} />
                </button>
              ))}
              <span
                aria-hidden
                className="text-left text-xs font-semibold text-muted"
                style={{ gridColumnStart: cols + 2 }}
              >
                {row.label}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
