// A hall's layout as the editor and the API carry it (DESIGN §6.2), and the rules a layout must keep. Imports only
// its siblings: the layout editor in the browser shows the same problems the server refuses.

import type { SeatType } from './types.ts';

export const MAX_LAYOUT_ROWS = 40;
export const MAX_LAYOUT_COLS = 60;
export const MAX_HALL_SEATS = 1500;

export type LayoutCell =
  | { kind: 'GAP' }
  | {
      kind: 'SEAT';
      type: SeatType;
      /** House seats and broken ones: never sold online. */
      blocked?: boolean;
      /** The two seats of a sofa share it. */
      pairId?: string;
      /** In answers: the seat's id and its number in the row (seats counted from the left, gaps not). */
      id?: string;
      number?: number;
    };

export interface LayoutRow {
  label: string;
  cells: LayoutCell[];
}

export interface LayoutProblem {
  /** Where in the layout: ['rows', r] or ['rows', r, 'cells', c]. */
  path: (string | number)[];
  message: string;
  /** Which rule, and the values its message names: for a screen that says the problem in another language. */
  rule: LayoutRule;
  values: Record<string, string | number>;
}

export type LayoutRule =
  | 'label_twice'
  | 'sofa_unpaired'
  | 'pair_not_sofa'
  | 'companion_alone'
  | 'sofa_split'
  | 'no_seats'
  | 'too_many_seats';

/** Everything wrong with a layout, each at its place (empty: the layout can be saved). */
export function layoutProblems(rows: readonly LayoutRow[]): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  const labels = new Map<string, number>();
  const pairs = new Map<string, { row: number; col: number }[]>();
  let seatCount = 0;
  rows.forEach((row, r) => {
    const key = row.label.trim().toUpperCase();
    if (labels.has(key)) {
      problems.push({
        path: ['rows', r, 'label'],
        message: `Row label "${row.label}" is used twice`,
        rule: 'label_twice',
        values: { label: row.label },
      });
    }
    labels.set(key, r);
    row.cells.forEach((cell, c) => {
      if (cell.kind !== 'SEAT') return;
      seatCount++;
      const at = ['rows', r, 'cells', c];
      if (cell.type === 'SOFA') {
        if (!cell.pairId) {
          problems.push({
            path: at,
            message: `A sofa seat in row ${row.label} has no pair`,
            rule: 'sofa_unpaired',
            values: { row: row.label },
          });
        } else pairs.set(cell.pairId, [...(pairs.get(cell.pairId) ?? []), { row: r, col: c }]);
      } else if (cell.pairId) {
        problems.push({
          path: at,
          message: `Only sofa seats come in pairs (row ${row.label})`,
          rule: 'pair_not_sofa',
          values: { row: row.label },
        });
      }
      if (cell.type === 'COMPANION') {
        const beside = [row.cells[c - 1], row.cells[c + 1]];
        if (!beside.some((n) => n?.kind === 'SEAT' && n.type === 'WHEELCHAIR')) {
          problems.push({
            path: at,
            message: `A companion seat in row ${row.label} must be next to a wheelchair space`,
            rule: 'companion_alone',
            values: { row: row.label },
          });
        }
      }
    });
  });
  for (const [pairId, seats] of pairs) {
    const [a, b] = seats;
    const whole = seats.length === 2 && a!.row === b!.row && Math.abs(a!.col - b!.col) === 1;
    if (!whole) {
      const { row, col } = seats[0]!;
      problems.push({
        path: ['rows', row, 'cells', col],
        message: `Sofa "${pairId}" must be two seats side by side in one row`,
        rule: 'sofa_split',
        values: { pair: pairId },
      });
    }
  }
  if (seatCount === 0) {
    problems.push({
      path: ['rows'],
      message: 'A hall needs at least one seat',
      rule: 'no_seats',
      values: {},
    });
  }
  if (seatCount > MAX_HALL_SEATS) {
    problems.push({
      path: ['rows'],
      message: `A hall can have at most ${MAX_HALL_SEATS} seats`,
      rule: 'too_many_seats',
      values: { max: MAX_HALL_SEATS },
    });
  }
  return problems;
}

/** A plain layout of rows × cols standard seats, rows lettered A, B, …: what `POST /api/admin/rooms` creates. */
export function plainLayout(rowCount: number, cols: number, label: (row: number) => string): LayoutRow[] {
  return Array.from({ length: rowCount }, (_, r) => ({
    label: label(r + 1),
    cells: Array.from({ length: cols }, () => ({ kind: 'SEAT' as const, type: 'STANDARD' as const })),
  }));
}
