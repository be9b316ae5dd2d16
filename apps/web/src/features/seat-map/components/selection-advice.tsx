// The selection rules as the seat map explains them. Loaded with the customer's first choice of a seat, not with the
// map: a first visit only looks. The rules are the contract's, the very functions the server holds by.
import type { RuleCell, RuleRow, SeatMap } from '@cinema/contract';
import { companionsWithoutWheelchair, singleSeatGapVerdict } from '@cinema/contract/constants';
import type { SeatCell } from '../../../components/seat-map/seat-view';
import { seatsInWords } from '../../../lib/seat-text';
import type { HallGrid } from '../../../components/seat-map/seat-cells';
import { useTranslation } from '../../../lib/i18n';

/** A choice that leaves seats alone: those seats, and the nearest choice that leaves none. */
export interface GapAdvice {
  stranded: SeatCell[];
  alternative: SeatCell[];
  /** enforce: the cinema does not sell it; warn: it may still be held. */
  refused: boolean;
}

/**
 * The map as the selection rules read it (the server reads its own the same way): each row of the grid with seats
 * where they stand and gaps between; a seat this customer may still choose is free, anything held, sold or blocked
 * (their own holds included) is taken. The selection is passed to the rules beside it.
 */
function ruleRows(grid: HallGrid, cells: readonly SeatCell[]): RuleRow[] {
  const rows: RuleCell[][] = grid.rows.map(() =>
    Array.from({ length: grid.cols }, (): RuleCell => ({ kind: 'GAP' })),
  );
  for (const seat of cells) {
    const row = rows[seat.row - 1];
    if (!row) continue;
    row[seat.col] = {
      kind: 'SEAT',
      id: seat.id,
      type: seat.type,
      ...(seat.pairId && { pairId: seat.pairId }),
      state: seat.view === 'AVAILABLE' || seat.view === 'SELECTED' ? 'free' : 'taken',
    };
  }
  return rows;
}

export interface SelectionVerdict {
  /**
   * Companion seats chosen without a wheelchair space: never sold so (the server refuses them too) until the
   * showtime's accessible seats are released (DESIGN §7.5).
   */
  companions: SeatCell[];
  /** A seat the choice would leave alone, unless the rule is off. */
  gap: GapAdvice | null;
}

/** What the rules say of this selection, under the hall's single-seat-gap rule. */
export function judgeSelection(
  grid: HallGrid,
  cells: readonly SeatCell[],
  selectedIds: readonly string[],
  rule: NonNullable<SeatMap['rules']>['singleSeatGap'],
  /** The showtime's wheelchair spaces and companion seats sell as standard seats now (accessibleSeatsReleased). */
  accessibleReleased = false,
): SelectionVerdict {
  const byId = new Map(cells.map((c) => [c.id, c]));
  const seatsOf = (ids: readonly string[]) => ids.flatMap((id) => byId.get(id) ?? []);
  const companions = accessibleReleased ? [] : seatsOf(companionsWithoutWheelchair(cells, selectedIds));
  const verdict =
    rule === 'off' ? { ok: true as const } : singleSeatGapVerdict(ruleRows(grid, cells), selectedIds);
  const gap = verdict.ok
    ? null
    : {
        stranded: seatsOf(verdict.stranded),
        alternative: seatsOf(verdict.alternative),
        refused: rule === 'enforce',
      };
  return { companions, gap };
}

/**
 * What is wrong with the selection before Hold seats: a companion seat without its wheelchair space (never sold so),
 * and a single seat the choice would leave alone (DESIGN §6.2), with a button that takes the nearest choice that
 * leaves nobody alone. Empty when all is well; spoken politely as it changes.
 */
export function SelectionAdvice({
  id,
  verdict: { companions, gap },
  onChoose,
}: {
  id: string;
  verdict: SelectionVerdict;
  onChoose: (seatIds: string[]) => void;
}) {
  const { t } = useTranslation('common');
  return (
    <div id={id} aria-live="polite" className="flex flex-col gap-3 empty:hidden">
      {companions.length > 0 && (
        <p className="rounded-lg border border-sky-300/50 bg-sky-950/60 px-3 py-2 text-sm text-sky-50">
          {t('advice.companions', { count: companions.length, seats: seatsInWords(companions) })}
        </p>
      )}
      {gap && <GapNote gap={gap} onChoose={onChoose} />}
    </div>
  );
}

function GapNote({ gap, onChoose }: { gap: GapAdvice; onChoose: (seatIds: string[]) => void }) {
  const { t } = useTranslation('common');
  const alone = seatsInWords(gap.stranded);
  return (
    <div className="flex flex-col items-start gap-2 rounded-lg border border-amber-300/50 bg-amber-950/60 px-3 py-2 text-sm text-amber-50">
      <p>{gap.refused ? t('advice.gapRefused', { seats: alone }) : t('advice.gapWarn', { seats: alone })}</p>
      {gap.alternative.length > 0 && <TakeInstead seats={gap.alternative} onChoose={onChoose} />}
    </div>
  );
}

/** The button that takes the nearest choice leaving nobody alone instead of the customer's own. */
export function TakeInstead({
  seats,
  onChoose,
}: {
  seats: SeatCell[];
  onChoose: (seatIds: string[]) => void;
}) {
  const { t } = useTranslation('common');
  return (
    <button
      type="button"
      className="btn-secondary self-start"
      onClick={() => onChoose(seats.map((s) => s.id))}
    >
      {t('advice.takeInstead', { seats: seatsInWords(seats) })}
    </button>
  );
}
