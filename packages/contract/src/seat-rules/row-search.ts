// The one search both the single-seat-gap verdict and best available run over a row: choose which cells to select
// so that no seat is left alone (DESIGN §6.2, seats.io's "no orphan seats" rule), at the least cost. It walks the
// row once from the right with a small state, so it is linear in the row's length times the counter's size,
// never exponential in the number of seats chosen.
import type { RuleRow, SeatType } from './types.ts';

/** A row read once for the rules: per cell, what it is and whether it may be chosen. */
export interface PreparedRow {
  cells: RuleRow;
  /** The seat id per cell ('' for a gap). */
  ids: string[];
  /** The seat type per cell (null for a gap). */
  types: (SeatType | null)[];
  /** A gap or a taken seat: it ends a run of free seats. */
  closed: boolean[];
  /** A free STANDARD or PREMIUM seat: the only seats that can be left alone (see strandedSeats). */
  canStrand: boolean[];
  /** Free and sold on its own terms: any free seat except a SOFA seat whose pair is not whole and free. */
  sellable: boolean[];
  /** The right half of a sofa pair: selected exactly when its left half is. */
  pairSecond: boolean[];
}

/** Reads a row's cells into the arrays the rules use; a sofa pair is two adjacent SOFA cells with one pairId. */
export function prepareRow(cells: RuleRow): PreparedRow {
  const n = cells.length;
  const row: PreparedRow = {
    cells,
    ids: [],
    types: [],
    closed: [],
    canStrand: [],
    sellable: [],
    pairSecond: new Array<boolean>(n).fill(false),
  };
  for (let i = 0; i < n; i++) {
    const cell = cells[i]!;
    const free = cell.kind === 'SEAT' && cell.state === 'free';
    row.ids.push(cell.kind === 'SEAT' ? cell.id : '');
    row.types.push(cell.kind === 'SEAT' ? cell.type : null);
    row.closed.push(!free);
    row.canStrand.push(free && (cell.type === 'STANDARD' || cell.type === 'PREMIUM'));
    row.sellable.push(free && cell.type !== 'SOFA');
  }
  // Pairs from the left: a SOFA cell pairs with the next one when they share a pairId. Only a whole free pair is
  // sold; a lone SOFA cell (a malformed layout) or a pair with a taken half is never chosen.
  for (let i = 0; i + 1 < n; i++) {
    const a = cells[i]!;
    const b = cells[i + 1]!;
    if (row.pairSecond[i] || a.kind !== 'SEAT' || b.kind !== 'SEAT') continue;
    if (a.type !== 'SOFA' || b.type !== 'SOFA' || a.pairId === undefined || a.pairId !== b.pairId) continue;
    row.pairSecond[i + 1] = true;
    const whole = !row.closed[i] && !row.closed[i + 1];
    row.sellable[i] = whole;
    row.sellable[i + 1] = whole;
  }
  return row;
}

/**
 * What a search counts and what each choice costs. Counter state 0 means "everything placed"; `next` and `cost`
 * are indexed `cell * states + state`; `next` is -1 where the cell may not be selected in that state.
 */
export interface RowSearch {
  states: number;
  /** Per cell: whether it may be selected at all (else `next` is -1 in every state). */
  choosable: readonly boolean[];
  next: Int32Array;
  cost: Float64Array;
  /** Added once per block (a run of adjacent selected cells). */
  blockCost: number;
  /** Refuse any choice that leaves a seat alone; false searches every choice of the right seats. */
  strict: boolean;
}

// The state of the cell to the left, as far as leaving seats alone goes.
const CLOSED = 0; // a gap, a taken seat or the row's start
const SELECTED = 1;
const FREE_SAFE = 2; // free and not at risk: exempt, or with a free seat on its left
const FREE_AFTER_CLOSED = 3; // a free STANDARD/PREMIUM seat with a closed left side: alone if its right is selected
const FREE_AFTER_SELECTED = 4; // a free STANDARD/PREMIUM seat with a selected left side: alone unless its right is free
const LEFT_STATES = 5;

function freeState(row: PreparedRow, i: number, left: number): number {
  if (!row.canStrand[i]) return FREE_SAFE;
  if (left === CLOSED) return FREE_AFTER_CLOSED;
  if (left === SELECTED) return FREE_AFTER_SELECTED;
  return FREE_SAFE;
}

/** Whether cell i may be left unselected after a cell in state `left` (a pair's right half follows its left half). */
function maySkip(row: PreparedRow, search: RowSearch, i: number, left: number): boolean {
  if (row.pairSecond[i] && left === SELECTED) return false;
  // Not selecting a closed cell still closes the right side of a free seat whose left side is selected.
  return !(search.strict && left === FREE_AFTER_SELECTED && row.closed[i]);
}

/** Whether cell i may be selected after a cell in state `left`, the counter permitting. */
function mayChoose(row: PreparedRow, search: RowSearch, i: number, left: number): boolean {
  if (row.pairSecond[i] && left !== SELECTED) return false;
  return !(search.strict && (left === FREE_AFTER_CLOSED || left === FREE_AFTER_SELECTED));
}

/** The row's end: closed, so a free seat with a selected left side is alone there; nothing left to place. */
function fillEnd(search: RowSearch, into: Float64Array, at: number): void {
  into.fill(Infinity, at, at + LEFT_STATES * search.states);
  for (let left = 0; left < LEFT_STATES; left++) {
    if (!(search.strict && left === FREE_AFTER_SELECTED)) into[at + left * search.states] = 0;
  }
}

/** Fills the cheapest completions from cell i (per left state and counter state) from those from cell i + 1. */
function fillCell(
  row: PreparedRow,
  search: RowSearch,
  i: number,
  from: Float64Array,
  fromAt: number,
  into: Float64Array,
  intoAt: number,
): void {
  const { states, next, cost, blockCost } = search;
  for (let left = 0; left < LEFT_STATES; left++) {
    const out = intoAt + left * states;
    const skipped = fromAt + (row.closed[i] ? CLOSED : freeState(row, i, left)) * states;
    const canSkip = maySkip(row, search, i, left);
    for (let s = 0; s < states; s++) into[out + s] = canSkip ? from[skipped + s]! : Infinity;
    if (!search.choosable[i] || !mayChoose(row, search, i, left)) continue;
    const start = left === SELECTED ? 0 : blockCost;
    for (let s = 0; s < states; s++) {
      const to = next[i * states + s]!;
      if (to < 0) continue;
      const chosen = cost[i * states + s]! + start + from[fromAt + SELECTED * states + to]!;
      if (chosen < into[out + s]!) into[out + s] = chosen;
    }
  }
}

/** The cheapest completion from each (cell, left state, counter state), as a table for rowCost and pickRow. */
export function searchRow(row: PreparedRow, search: RowSearch): Float64Array {
  const n = row.cells.length;
  const layer = LEFT_STATES * search.states;
  const table = new Float64Array((n + 1) * layer);
  fillEnd(search, table, n * layer);
  for (let i = n - 1; i >= 0; i--) fillCell(row, search, i, table, (i + 1) * layer, table, i * layer);
  return table;
}

/** Per counter state, the cost of the cheapest choice over the whole row: searchRow's answer in two cells' memory. */
export function rowCosts(row: PreparedRow, search: RowSearch): Float64Array {
  let from = new Float64Array(LEFT_STATES * search.states);
  let into = new Float64Array(LEFT_STATES * search.states);
  fillEnd(search, from, 0);
  for (let i = row.cells.length - 1; i >= 0; i--) {
    fillCell(row, search, i, from, 0, into, 0);
    [from, into] = [into, from];
  }
  return from.slice(CLOSED * search.states, (CLOSED + 1) * search.states);
}

/** The cost of the cheapest choice from counter state `start` over the whole row (Infinity when there is none). */
export function rowCost(table: Float64Array, search: RowSearch, start: number): number {
  return table[CLOSED * search.states + start]!;
}

/** The cells of the cheapest choice from counter state `start`; among equals, the one whose seats lie furthest left. */
export function pickRow(row: PreparedRow, search: RowSearch, table: Float64Array, start: number): number[] {
  const { states, next, cost, blockCost } = search;
  const layer = LEFT_STATES * states;
  const picked: number[] = [];
  let left = CLOSED;
  let s = start;
  for (let i = 0; i < row.cells.length; i++) {
    const want = table[i * layer + left * states + s]!;
    const to = next[i * states + s]!;
    const after = (i + 1) * layer;
    const viaChoice =
      to >= 0 && mayChoose(row, search, i, left)
        ? cost[i * states + s]! + (left === SELECTED ? 0 : blockCost) + table[after + SELECTED * states + to]!
        : Infinity;
    if (viaChoice === want) {
      picked.push(i);
      left = SELECTED;
      s = to;
    } else {
      left = row.closed[i] ? CLOSED : freeState(row, i, left);
    }
  }
  return picked;
}
