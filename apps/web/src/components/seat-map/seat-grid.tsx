import { useMemo, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { ScreenBar } from './screen-bar';
import { seatLook, SeatMark, type SofaHalf } from './seat-face';
import { isMoveKey, placeToward } from './seat-navigation';
import { dataStatus, isUnavailable, seatName, type SeatCell } from './seat-view';
import { useSeatZoom } from './seat-zoom';
import { useTranslation } from '../../lib/i18n';

/** The columns of a row: its label either side of the hall's grid of seats and gaps (sides from the zoom). */
const rowTemplate = (cols: number) => ({
  gridTemplateColumns: `var(--row-label) repeat(${cols}, var(--seat)) var(--row-label)`,
});

/** A row label that stays in view, over the seats, while the hall scrolls sideways under it. */
const rowLabel = 'sticky z-[1] bg-panel text-xs font-semibold text-muted';

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
 * The hall by row behind its screen, front first, each seat at its column so that aisles show as space. One seat
 * is in the tab order at a time (roving tabindex): the arrow keys move between seats across aisles, Home and End
 * jump along the row, Enter and Space press the seat. Zoom buttons fit the whole hall in view or make seats bigger;
 * when the hall is wider than its box it scrolls sideways under row labels that stay in view, starting on the
 * middle of the hall, and says so.
 */
export function SeatGrid({
  rows,
  cols,
  seats,
  onPress,
  label,
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
  const { t } = useTranslation('common');
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

  const zoom = useSeatZoom(cols);
  const template = rowTemplate(cols);
  const sizes = {
    '--seat': `${zoom.seat}px`,
    '--seat-gap': `${zoom.gap}px`,
    '--row-label': `${zoom.label}px`,
    rowGap: zoom.gap,
  } as CSSProperties;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-end gap-2">
        {zoom.overflows && (
          <p className="min-w-0 grow text-xs text-muted" data-testid="scroll-hint">
            {t('seat.scrollHint')}
          </p>
        )}
        <button
          type="button"
          className="btn-secondary h-9 w-9 shrink-0 p-0 text-lg"
          aria-label={t('seat.zoomOut')}
          disabled={!zoom.canZoomOut}
          onClick={() => zoom.zoom(-1)}
        >
          −
        </button>
        <button
          type="button"
          className="btn-secondary h-9 w-9 shrink-0 p-0 text-lg"
          aria-label={t('seat.zoomIn')}
          disabled={!zoom.canZoomIn}
          onClick={() => zoom.zoom(1)}
        >
          +
        </button>
      </div>
      <div ref={zoom.box} className="overflow-x-auto pb-2" data-testid="seat-scroller">
        <div
          className="mx-auto flex w-max flex-col"
          style={sizes}
          role="group"
          aria-label={label ?? t('seat.seats')}
        >
          {/* The screen spans the seats' columns, so its mark sits over the hall's centre. */}
          <div className="mb-3 grid" style={{ ...template, columnGap: zoom.gap }}>
            <div style={{ gridColumn: `2 / ${cols + 2}` }}>
              <ScreenBar firstRow={rows[0]?.label} />
            </div>
          </div>
          {rows.map((row, r) => {
            const cells = byRow[r]!;
            // A row without seats (a cross aisle) is space, nothing to announce.
            if (cells.length === 0) return <div key={r} aria-hidden className="h-(--seat)" />;
            const halves = sofaHalves(cells);
            return (
              <div
                key={r}
                className="grid items-center"
                style={{ ...template, columnGap: zoom.gap }}
                role="group"
                aria-label={t('seat.row', { row: row.label })}
              >
                <span aria-hidden className={`${rowLabel} left-0 pr-1 text-right`}>
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
                  className={`${rowLabel} right-0 pl-1 text-left`}
                  style={{ gridColumnStart: cols + 2 }}
                >
                  {row.label}
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
