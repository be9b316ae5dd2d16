// The layout editor's model: a hall drawn as a rectangle of cells, every row as wide as the grid, and the edits
// made to it. Pure functions over plain data: each returns a new draft and leaves the one it was given alone.
import type { HallLayoutResponse, LayoutCell, LayoutRow, SeatType } from '@cinema/contract';
import {
  layoutProblems,
  MAX_LAYOUT_COLS,
  MAX_LAYOUT_ROWS,
  rowLabel,
  type LayoutRule,
} from '@cinema/contract/constants';

/** What a cell is painted with: a seat type, a gap, or blocking (and unblocking) seats. */
export type Tool = SeatType | 'GAP' | 'BLOCK';

export interface Draft {
  name: string;
  rows: LayoutRow[];
  cols: number;
}

type SeatCell = Extract<LayoutCell, { kind: 'SEAT' }>;

const seat = (type: SeatType = 'STANDARD', blocked = false): SeatCell =>
  blocked ? { kind: 'SEAT', type, blocked } : { kind: 'SEAT', type };

/** A new hall: `rows` rows of `cols` standard seats, lettered A, B, … */
export function blankDraft(rows = 8, cols = 12): Draft {
  return {
    name: '',
    cols,
    rows: Array.from({ length: rows }, (_, r) => ({
      label: rowLabel(r + 1),
      cells: Array.from({ length: cols }, () => seat()),
    })),
  };
}

/** A saved hall as a draft: its rows padded with gaps to the grid's width, seat ids and numbers left out. */
export function draftOf(hall: HallLayoutResponse): Draft {
  const cols = Math.max(hall.cols, ...hall.rows.map((r) => r.cells.length));
  return {
    name: hall.name,
    cols,
    rows: hall.rows.map((row) => ({
      label: row.label,
      cells: Array.from({ length: cols }, (_, c): LayoutCell => {
        const cell = row.cells[c];
        if (!cell || cell.kind === 'GAP') return { kind: 'GAP' };
        return { ...seat(cell.type, cell.blocked), ...(cell.pairId && { pairId: cell.pairId }) };
      }),
    })),
  };
}

/** Where the seat with this id stood in a saved hall: `${row}:${col}` (rows and columns from 0). */
export function placesOf(hall: HallLayoutResponse, seatIds: readonly string[]): Set<string> {
  const wanted = new Set(seatIds);
  const places = new Set<string>();
  hall.rows.forEach((row, r) =>
    row.cells.forEach((cell, c) => {
      if (cell.kind === 'SEAT' && cell.id && wanted.has(cell.id)) places.add(`${r}:${c}`);
    }),
  );
  return places;
}

/** The column of the other half of the sofa at `c`, if it is a whole one. */
export function sofaMate(cells: readonly LayoutCell[], c: number): number | undefined {
  const cell = cells[c];
  if (cell?.kind !== 'SEAT' || cell.type !== 'SOFA' || !cell.pairId) return undefined;
  return [c - 1, c + 1].find((i) => {
    const other = cells[i];
    return other?.kind === 'SEAT' && other.type === 'SOFA' && other.pairId === cell.pairId;
  });
}

/** A sofa half whose other half is gone becomes a standard seat (blocked if it was). */
function loosen(cells: LayoutCell[], c: number): void {
  const cell = cells[c];
  if (cell?.kind === 'SEAT' && cell.type === 'SOFA' && sofaMate(cells, c) === undefined) {
    cells[c] = seat('STANDARD', cell.blocked);
  }
}

function unusedPairId(rows: readonly LayoutRow[]): string {
  const used = new Set(rows.flatMap((r) => r.cells.map((c) => (c.kind === 'SEAT' ? c.pairId : undefined))));
  let n = 1;
  while (used.has(`S${n}`)) n++;
  return `S${n}`;
}

function withRow(draft: Draft, r: number, cells: LayoutCell[]): Draft {
  return { ...draft, rows: draft.rows.map((row, i) => (i === r ? { ...row, cells } : row)) };
}

/**
 * Paints the cell at row `r`, column `c` with `tool`. A sofa takes the cell and its neighbour (the one `toward` the
 * way a stroke is going first; none free: nothing changes); painting over half a sofa leaves the other half a
 * standard seat. BLOCK sets `blocked` on a seat (both halves of a sofa); a seat painted another type stays blocked.
 */
export function paint(
  draft: Draft,
  r: number,
  c: number,
  tool: Tool,
  { blocked = true, toward = 'right' }: { blocked?: boolean; toward?: 'left' | 'right' } = {},
): Draft {
  const row = draft.rows[r];
  const here = row?.cells[c];
  if (!row || !here) return draft;
  const cells = [...row.cells];
  const mate = sofaMate(cells, c);

  if (tool === 'BLOCK') {
    if (here.kind !== 'SEAT') return draft;
    for (const i of [c, ...(mate === undefined ? [] : [mate])]) {
      const cell = cells[i] as SeatCell;
      const { blocked: _was, ...rest } = cell;
      cells[i] = blocked ? { ...rest, blocked } : rest;
    }
    return withRow(draft, r, cells);
  }

  if (tool === 'SOFA') {
    if (mate !== undefined) return draft;
    const free = (i: number) => i >= 0 && i < cells.length && sofaMate(cells, i) === undefined;
    const other = (toward === 'left' ? [c - 1, c + 1] : [c + 1, c - 1]).find(free);
    if (other === undefined) return draft;
    const blockedPair = [c, other].some((i) => {
      const cell = cells[i]!;
      return cell.kind === 'SEAT' && cell.blocked === true;
    });
    const pairId = unusedPairId(draft.rows);
    cells[c] = { ...seat('SOFA', blockedPair), pairId };
    cells[other] = { ...seat('SOFA', blockedPair), pairId };
    return withRow(draft, r, cells);
  }

  cells[c] = tool === 'GAP' ? { kind: 'GAP' } : seat(tool, here.kind === 'SEAT' && here.blocked === true);
  if (mate !== undefined) loosen(cells, mate);
  return withRow(draft, r, cells);
}

/** Renames row `r`. */
export function relabel(draft: Draft, r: number, label: string): Draft {
  return { ...draft, rows: draft.rows.map((row, i) => (i === r ? { ...row, label } : row)) };
}

/** Grows or shrinks the grid from its back and its right: new cells are standard seats, new rows lettered on. */
export function resize(draft: Draft, rowCount: number, cols: number): Draft {
  const rowsWanted = Math.min(MAX_LAYOUT_ROWS, Math.max(1, Math.trunc(rowCount) || 1));
  const colsWanted = Math.min(MAX_LAYOUT_COLS, Math.max(1, Math.trunc(cols) || 1));
  const rows = draft.rows.slice(0, rowsWanted).map((row) => {
    const cells = row.cells.slice(0, colsWanted);
    while (cells.length < colsWanted) cells.push(seat());
    loosen(cells, cells.length - 1);
    return { ...row, cells };
  });
  const labels = new Set(rows.map((r) => r.label.trim().toUpperCase()));
  for (let n = 1; rows.length < rowsWanted; n++) {
    const label = rowLabel(n);
    if (labels.has(label)) continue;
    labels.add(label);
    rows.push({ label, cells: Array.from({ length: colsWanted }, () => seat()) });
  }
  return { ...draft, rows, cols: colsWanted };
}

/** The layout as the API takes it. */
export const layoutRows = (draft: Draft): LayoutRow[] =>
  draft.rows.map((row) => ({ label: row.label.trim(), cells: row.cells }));

/** Each cell's seat number (seats counted from the left of the row, gaps not), null for a gap. */
export function seatNumbers(draft: Draft): (number | null)[][] {
  return draft.rows.map((row) => {
    let n = 0;
    return row.cells.map((cell) => (cell.kind === 'SEAT' ? ++n : null));
  });
}

/** A problem in English (`message`), and its rule and values to say it in the viewer's language. */
export interface DraftProblem {
  message: string;
  rule: LayoutRule | 'label_missing';
  values: Record<string, string | number>;
  place?: string;
}

/** What stops the layout being saved, each with the place it concerns (`${row}:${col}`, or none for the hall). */
export function draftProblems(draft: Draft): DraftProblem[] {
  const unlabelled = draft.rows.flatMap((row, r): DraftProblem[] =>
    row.label.trim()
      ? []
      : [{ message: `Row ${r + 1} needs a label`, rule: 'label_missing', values: { row: r + 1 } }],
  );
  return [
    ...unlabelled,
    ...layoutProblems(layoutRows(draft)).map(({ path, message, rule, values }) => ({
      message,
      rule,
      values,
      ...(path[2] === 'cells' && { place: `${path[1]}:${path[3]}` }),
    })),
  ];
}

/** How many seats of each kind the draft has, and how many are blocked. */
export function seatSummary(draft: Draft): { seats: number; blocked: number; byType: Map<SeatType, number> } {
  const byType = new Map<SeatType, number>();
  let seats = 0;
  let blocked = 0;
  for (const row of draft.rows) {
    for (const cell of row.cells) {
      if (cell.kind !== 'SEAT') continue;
      seats++;
      if (cell.blocked) blocked++;
      byType.set(cell.type, (byType.get(cell.type) ?? 0) + 1);
    }
  }
  return { seats, blocked, byType };
}
