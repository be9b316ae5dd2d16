import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
} from 'react';
import type { TFunction } from '../../../lib/i18n';
import { useTranslation } from '../../../lib/i18n';
import type { LayoutCell } from '@cinema/contract';
import { seatLook, SeatMark } from '../../../components/seat-map/seat-face';
import { isMoveKey, placeToward } from '../../../components/seat-map/seat-navigation';
import { seatNumbers, sofaMate, type Draft } from '../lib/layout-draft';

/** A stroke of the pointer (or of Shift and the arrow keys): what it paints with, and where it last painted. */
interface Stroke {
  blocked: boolean;
  col: number;
}

function cellWords(cell: LayoutCell, number: number | null, t: TFunction<'admin'>): string {
  if (cell.kind === 'GAP') return t('layoutGrid.gap');
  const seat = t('layoutGrid.seat', { type: t(`seatType.${cell.type}`), number });
  return cell.blocked ? t('layoutGrid.blocked', { seat }) : seat;
}

const gapLook = 'h-7 w-7 rounded-sm border border-dashed border-line bg-transparent hover:border-gold';

/**
 * The editor's grid: one button per cell, row labels in front. A click paints a cell with the tool, a drag paints
 * every cell it crosses; by keyboard the arrow keys move, Enter or Space paints and Shift with an arrow paints
 * while moving. `marked` cells (`${row}:${col}`) are outlined: seats at stake, or where a problem is.
 */
export function LayoutGrid({
  draft,
  onPaint,
  onRelabel,
  atStake,
  problems,
  describedBy,
}: {
  draft: Draft;
  onPaint: (r: number, c: number, options: { blocked: boolean; toward: 'left' | 'right' }) => void;
  onRelabel: (r: number, label: string) => void;
  atStake: ReadonlySet<string>;
  problems: ReadonlySet<string>;
  describedBy: string;
}) {
  const { t } = useTranslation('admin');
  const numbers = useMemo(() => seatNumbers(draft), [draft]);
  const places = useMemo(() => draft.rows.map((row) => row.cells.map((_, col) => ({ col }))), [draft]);
  const [focus, setFocus] = useState({ r: 0, c: 0 });
  // The one cell in the tab order (roving tabindex), kept inside the grid when it shrinks.
  const stop = { r: Math.min(focus.r, draft.rows.length - 1), c: Math.min(focus.c, draft.cols - 1) };
  const stroke = useRef<Stroke | null>(null);
  const pointer = useRef<string>('mouse');
  const buttons = useRef(new Map<string, HTMLButtonElement>());

  useEffect(() => {
    const end = () => (stroke.current = null);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
    return () => {
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
    };
  }, []);

  const cellAt = (r: number, c: number) => draft.rows[r]?.cells[c];
  /** What BLOCK does where a stroke starts: block an unblocked seat, unblock a blocked one. */
  const startBlocked = (cell: LayoutCell | undefined) => !(cell?.kind === 'SEAT' && cell.blocked);
  const paintAt = (r: number, c: number, from?: Stroke) => {
    const blocked = from?.blocked ?? startBlocked(cellAt(r, c));
    onPaint(r, c, { blocked, toward: from && c < from.col ? 'left' : 'right' });
    stroke.current = { blocked, col: c };
  };

  const onPointerDown = (e: PointerEvent<HTMLButtonElement>, r: number, c: number) => {
    pointer.current = e.pointerType;
    // A finger paints on its tap (a drag scrolls the grid); a mouse or pen paints as it goes down.
    if (e.pointerType === 'touch' || e.button !== 0) return;
    paintAt(r, c);
  };
  const onPointerEnter = (e: PointerEvent<HTMLButtonElement>, r: number, c: number) => {
    if (stroke.current && e.buttons & 1 && e.pointerType !== 'touch') paintAt(r, c, stroke.current);
  };
  const onClick = (e: MouseEvent<HTMLButtonElement>, r: number, c: number) => {
    // A mouse click painted on its way down; Enter, Space, a tap and assistive technology paint here.
    if (e.detail > 0 && pointer.current !== 'touch') return;
    paintAt(r, c);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, r: number, c: number) => {
    if (!isMoveKey(e.key)) return;
    e.preventDefault();
    const to = placeToward(places, r, c, e.key);
    if (!to) return;
    const r2 = ['ArrowUp', 'ArrowDown'].includes(e.key) ? r + (e.key === 'ArrowUp' ? -1 : 1) : r;
    setFocus({ r: r2, c: to.col });
    buttons.current.get(`${r2}:${to.col}`)?.focus();
    if (e.shiftKey) {
      // Shift paints the cell it moves to, as a drag would: BLOCK carries on the state of the cell it leaves.
      const here = cellAt(r, c);
      const blocked = here?.kind === 'SEAT' ? here.blocked === true : true;
      onPaint(r2, to.col, { blocked, toward: to.col < c ? 'left' : 'right' });
    }
  };

  const template = { gridTemplateColumns: `3rem repeat(${draft.cols}, 1.75rem)` };
  return (
    <div className="overflow-x-auto pb-2">
      <div
        role="group"
        aria-label={t('layoutGrid.label')}
        aria-describedby={describedBy}
        className="flex w-max flex-col gap-1.5 select-none"
      >
        {draft.rows.map((row, r) => {
          const name = row.label.trim() || String(r + 1);
          return (
            <div
              key={r}
              role="group"
              aria-label={t('layoutGrid.row', { name })}
              className="grid items-center gap-1.5"
              style={template}
            >
              <input
                className="input h-7 w-11 px-1 py-0 text-center text-xs font-semibold"
                aria-label={t('layoutGrid.rowLabel', { n: r + 1 })}
                value={row.label}
                maxLength={4}
                required
                onChange={(e) => onRelabel(r, e.target.value)}
              />
              {row.cells.map((cell, c) => {
                const place = `${r}:${c}`;
                const mate = sofaMate(row.cells, c);
                const half = mate === undefined ? undefined : mate > c ? 'left' : 'right';
                const marks = [
                  atStake.has(place) && t('layoutGrid.atStake'),
                  problems.has(place) && t('layoutGrid.problem'),
                ].filter(Boolean);
                return (
                  <button
                    key={c}
                    ref={(el) => {
                      if (el) buttons.current.set(place, el);
                      else buttons.current.delete(place);
                    }}
                    type="button"
                    data-cell={place}
                    data-kind={cell.kind === 'SEAT' ? cell.type : 'GAP'}
                    data-blocked={cell.kind === 'SEAT' && cell.blocked ? 'true' : undefined}
                    aria-label={[
                      t('layoutGrid.cell', {
                        name,
                        col: c + 1,
                        what: cellWords(cell, numbers[r]![c]!, t),
                      }),
                      ...marks,
                    ].join(', ')}
                    tabIndex={stop.r === r && stop.c === c ? 0 : -1}
                    onFocus={() => setFocus({ r, c })}
                    onPointerDown={(e) => onPointerDown(e, r, c)}
                    onPointerEnter={(e) => onPointerEnter(e, r, c)}
                    onClick={(e) => onClick(e, r, c)}
                    onKeyDown={(e) => onKeyDown(e, r, c)}
                    className={`${
                      cell.kind === 'GAP'
                        ? gapLook
                        : seatLook(cell.type, cell.blocked ? 'BLOCKED' : 'AVAILABLE', half)
                    } cursor-pointer ${
                      atStake.has(place)
                        ? 'ring-2 ring-red-400 ring-offset-2 ring-offset-panel'
                        : problems.has(place)
                          ? 'ring-2 ring-amber-300 ring-offset-2 ring-offset-panel'
                          : ''
                    }`}
                  >
                    {cell.kind === 'SEAT' && (
                      <SeatMark
                        type={cell.type}
                        view={cell.blocked ? 'BLOCKED' : 'AVAILABLE'}
                        number={numbers[r]![c]!}
                      />
                    )}
                  </button>
                );
              })}
            </div>
          );
        })}
      </div>
    </div>
  );
}
