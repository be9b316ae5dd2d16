// Test helpers for the seat rules: a one-line notation for rows, random halls for fast-check, and brute-force
// references that enumerate every choice on small rows. Only the tests import this file.
import fc from 'fast-check';
import { strandedSeats } from './single-seat-gap.ts';
import type { RuleCell, RuleRow, SeatType } from './types.ts';

// One character per cell (spaces are ignored): '_' a gap; '.' STANDARD, 'P' PREMIUM, 'W' WHEELCHAIR,
// 'C' COMPANION, 'S' SOFA, free in upper case (and '.'), taken in lower case (and 'x'). Consecutive 'S'/'s'
// cells pair up from the left; a trailing odd one stays a lone half (a malformed layout, on purpose).
// Seats are named by row letter and seat number, counting seats only: A1, A2, …
const LETTERS: Record<string, SeatType> = {
  '.': 'STANDARD',
  x: 'STANDARD',
  p: 'PREMIUM',
  w: 'WHEELCHAIR',
  c: 'COMPANION',
  s: 'SOFA',
};

/** Rows written one string each, row A first. */
export function hall(...rows: string[]): RuleRow[] {
  return rows.map((text, r) => {
    const label = String.fromCharCode(65 + r);
    const cells: RuleCell[] = [];
    let number = 0;
    let openPair: string | undefined;
    for (const ch of text.replaceAll(' ', '')) {
      if (ch === '_') {
        cells.push({ kind: 'GAP' });
        openPair = undefined;
        continue;
      }
      const type = LETTERS[ch.toLowerCase()];
      if (!type) throw new Error(`Unknown cell '${ch}' in "${text}"`);
      const state = ch === '.' || (ch !== 'x' && ch === ch.toUpperCase()) ? 'free' : 'taken';
      const id = `${label}${++number}`;
      if (type !== 'SOFA') {
        openPair = undefined;
        cells.push({ kind: 'SEAT', id, type, state });
        continue;
      }
      const pairId = openPair ?? `${label}-pair-${number}`;
      openPair = openPair ? undefined : pairId;
      cells.push({ kind: 'SEAT', id, type, pairId, state });
    }
    return cells;
  });
}

const CELL_TOKENS: fc.WeightedArbitrary<string>[] = [
  { arbitrary: fc.constant('.'), weight: 10 },
  { arbitrary: fc.constant('x'), weight: 6 },
  { arbitrary: fc.constant('_'), weight: 3 },
  { arbitrary: fc.constantFrom('P', 'p'), weight: 3 },
  { arbitrary: fc.constantFrom('W', 'w', 'C', 'c'), weight: 3 },
  { arbitrary: fc.constantFrom('SS', 'SS', 'ss', 'Ss', 'S_'), weight: 2 },
];

/** Random rows as strings (cells per row at most `maxCells`), so a failure prints readably. */
export function rowsArb(maxRows: number, maxCells: number, minCells = 1): fc.Arbitrary<string[]> {
  const row = fc
    .array(fc.oneof(...CELL_TOKENS), { minLength: minCells, maxLength: maxCells, size: 'max' })
    .map((tokens) => tokens.join('').slice(0, maxCells));
  return fc.array(row, { minLength: 1, maxLength: maxRows });
}

export type Seat = Extract<RuleCell, { kind: 'SEAT' }>;

export function seatsOf(rows: readonly RuleRow[]): Seat[] {
  return rows.flat().filter((cell): cell is Seat => cell.kind === 'SEAT');
}

/** Where each seat is: row index and grid column. */
export function positions(rows: readonly RuleRow[]): Map<string, { row: number; col: number; seat: Seat }> {
  const at = new Map<string, { row: number; col: number; seat: Seat }>();
  rows.forEach((cells, row) =>
    cells.forEach((cell, col) => {
      if (cell.kind === 'SEAT') at.set(cell.id, { row, col, seat: cell });
    }),
  );
  return at;
}

/**
 * The units a customer may choose in a row: each free seat of an allowed type on its own, except sofa seats,
 * which come as whole free pairs (two adjacent SOFA cells sharing a pairId). Columns per unit.
 */
export function units(cells: RuleRow, allowed: (type: SeatType) => boolean): number[][] {
  const out: number[][] = [];
  for (let col = 0; col < cells.length; col++) {
    const cell = cells[col]!;
    if (cell.kind !== 'SEAT' || cell.state !== 'free' || !allowed(cell.type)) continue;
    if (cell.type !== 'SOFA') {
      out.push([col]);
      continue;
    }
    const partner = cells[col + 1];
    if (
      partner?.kind === 'SEAT' &&
      partner.type === 'SOFA' &&
      partner.pairId === cell.pairId &&
      cell.pairId
    ) {
      if (partner.state === 'free') out.push([col, col + 1]);
      col++; // the pair's right half is never a unit of its own
    }
  }
  return out;
}

/** Every way to take units totalling exactly `size` seats (in the order the units are listed). */
export function* choices<T>(list: readonly T[][], size: number, from = 0): Generator<T[]> {
  if (size === 0) {
    yield [];
    return;
  }
  for (let u = from; u < list.length; u++) {
    if (list[u]!.length > size) continue;
    for (const rest of choices(list, size - list[u]!.length, u + 1)) yield [...list[u]!, ...rest];
  }
}

/** Sum of column shifts, seats matched in order left to right. */
export function shift(a: readonly number[], b: readonly number[]): number {
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  return x.reduce((sum, col, k) => sum + Math.abs(col - y[k]!), 0);
}

export function typeCounts(cells: RuleRow, cols: readonly number[]): string {
  return cols
    .map((col) => (cells[col] as Seat).type)
    .sort()
    .join(',');
}

/**
 * The single-seat-gap rule by enumeration: for each row that leaves a seat alone, every choice of as many free
 * seats of each type (sofas whole); the selection stands when some such row has no choice leaving none alone.
 * Otherwise it returns, per row, the smallest shift a choice leaving none alone achieves.
 */
export function referenceVerdict(rows: readonly RuleRow[], selected: readonly string[]) {
  const at = positions(rows);
  const stranded = new Set(strandedSeats(rows, selected));
  if (stranded.size === 0) return { ok: true as const };
  const nearest = new Map<number, number>();
  for (const [r, cells] of rows.entries()) {
    if (!cells.some((cell) => cell.kind === 'SEAT' && stranded.has(cell.id))) continue;
    const chosen = selected.flatMap((id) => (at.get(id)?.row === r ? [at.get(id)!.col] : []));
    const wanted = typeCounts(cells, chosen);
    const allowed = (type: SeatType) => wanted.split(',').includes(type);
    let best = Infinity;
    for (const cols of choices(units(cells, allowed), chosen.length)) {
      if (typeCounts(cells, cols) !== wanted) continue;
      const ids = cols.map((col) => (cells[col] as Seat).id);
      if (strandedSeats([cells], ids).length === 0) best = Math.min(best, shift(cols, chosen));
    }
    if (best === Infinity) return { ok: true as const };
    nearest.set(r, best);
  }
  return { ok: false as const, stranded: [...stranded], nearest };
}

/** The blocks (maximal runs of adjacent selected cells) of a selection, as row and columns. */
export function blocksOf(
  rows: readonly RuleRow[],
  ids: readonly string[],
): { row: number; cols: number[] }[] {
  const at = positions(rows);
  const sorted = ids.map((id) => at.get(id)!).sort((a, b) => a.row - b.row || a.col - b.col);
  const blocks: { row: number; cols: number[] }[] = [];
  for (const { row, col } of sorted) {
    const last = blocks[blocks.length - 1];
    if (last && last.row === row && last.cols[last.cols.length - 1] === col - 1) last.cols.push(col);
    else blocks.push({ row, cols: [col] });
  }
  return blocks;
}
