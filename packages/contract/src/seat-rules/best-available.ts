// Best available (DESIGN §6.2, `POST /api/showtimes/{id}/best-available {count, type?}`): a pure, documented
// scoring in the manner of letsrevel/revel-backend's best_available.py.
//
// Which seats: free ones of the asked type. No type: STANDARD, PREMIUM and SOFA, never a wheelchair space or a
// companion seat (once the showtime's accessible seats are released, `accessibleReleased`, those too). STANDARD, PREMIUM or SOFA: only that type. WHEELCHAIR: WHEELCHAIR and COMPANION seats with at
// least one wheelchair space among them (count 2 is a space and its companion). COMPANION alone is never an
// answer (a companion seat is sold with a wheelchair space): null. Sofas only as whole pairs, a pair being two seats.
//
// Where: the ideal point is the middle of the widest row's grid columns (gaps count; rows start at column 0),
// two thirds of the way from the first row (row A, at the screen) to the last. A seat's distance to it is
//   d² = dx² + (1.8 · dy)²
// in seat widths: one row back or forward weighs as much as 1.8 seats sideways (a row is about 1 m deep, a seat
// about 0.55 m wide). A selection scores the sum of its seats' d². For one block that ranks exactly as the squared
// distance of the block's centre does (the sum is n · d²(centre) plus a constant for n adjacent seats), and it
// extends to split selections unchanged. Scores are computed in integers, so ties are exact.
//
// Which selection, first to last (lower is better at each step):
//   1. one block (adjacent seats in one row, no gap between them) that leaves no seat alone, best score;
//   2. one block that leaves a seat alone where no choice of the same seats in that row leaves none
//      (singleSeatGapVerdict says ok), best score;
//   3. a split selection that leaves no seat alone: fewest blocks, then fewest rows spanned (the same row, then
//      neighbouring rows), then best score;
//   4. only when no selection of these seats in the hall leaves none alone (so every one is allowed by the
//      verdict): any selection, by the same order as 3.
// With type WHEELCHAIR, fewer wheelchair spaces come before the score at every step (the spaces are kept for other
// wheelchair users). Ties go to the earlier row, then the seats furthest left. null only when the free seats of
// that type cannot make up `count` (or `count` is not a positive integer). Built for counts up to a hold's ten
// seats: the work grows with the hall's size times count².
import { prepareRow, pickRow, rowCosts, searchRow, type PreparedRow, type RowSearch } from './row-search.ts';
import { nearestChoiceLeavingNoneAlone } from './single-seat-gap.ts';
import type { RuleRow, SeatType } from './types.ts';

export interface BestAvailableOptions {
  type?: SeatType;
  /**
   * The showtime's wheelchair spaces and companion seats sell as standard seats now (accessibleSeatsReleased): with
   * no type, they join the pool as standard seats.
   */
  accessibleReleased?: boolean;
}

/**
 * Seat scores, scaled by 100 so they stay integral: 100 · (dx² + (9/5)² dy²) = 25 · (2dx)² + 36 · (3dy)², where
 * 2dx and 3dy are whole numbers (the ideal column is (widest - 1) / 2, the ideal row 2 · (rows - 1) / 3).
 */
function seatScorer(rows: readonly RuleRow[]): { score: (row: number, col: number) => number; max: number } {
  const widest = Math.max(0, ...rows.map((cells) => cells.length));
  const deepest = rows.length - 1;
  return {
    score: (row, col) => 25 * (2 * col - (widest - 1)) ** 2 + 36 * (3 * row - 2 * deepest) ** 2,
    // The corners furthest from the ideal point: no seat scores more.
    max: 25 * Math.max(0, widest - 1) ** 2 + 36 * (2 * deepest) ** 2,
  };
}

const POOLS: Record<SeatType | 'ANY' | 'RELEASED', readonly SeatType[]> = {
  ANY: ['STANDARD', 'PREMIUM', 'SOFA'],
  RELEASED: ['STANDARD', 'PREMIUM', 'SOFA', 'WHEELCHAIR', 'COMPANION'],
  STANDARD: ['STANDARD'],
  PREMIUM: ['PREMIUM'],
  SOFA: ['SOFA'],
  WHEELCHAIR: ['WHEELCHAIR', 'COMPANION'],
  COMPANION: [],
};

interface Hall {
  rows: PreparedRow[];
  count: number;
  /** 2 with type WHEELCHAIR (the counter also tracks "a space still needed"), else 1. */
  needs: number;
  inPool: boolean[][];
  /** Per row and cell: the seat's score plus, with type WHEELCHAIR, the weight of a wheelchair space. */
  price: number[][];
  blockWeight: number;
}

/** One block: `count` adjacent seats of the pool in one row, from column `first`. */
interface Block {
  row: number;
  first: number;
  cost: number;
  leavesSeatAlone: boolean;
}

/** The ids of the best `count` free seats for one customer (see the header for the order), or null. */
export function bestAvailable(
  rows: readonly RuleRow[],
  count: number,
  options: BestAvailableOptions = {},
): string[] | null {
  if (!Number.isInteger(count) || count < 1) return null;
  const hall = readHall(rows, count, options.type, options.accessibleReleased);
  if (!enoughSeats(hall)) return null;
  const blocks = singleBlocks(hall);
  const block = cheapest(blocks, (b) => !b.leavesSeatAlone) ?? bestExcusedBlock(hall, sortedByCost(blocks));
  if (block) {
    const ids = hall.rows[block.row]!.ids;
    return ids.slice(block.first, block.first + count);
  }
  const split = bestSplit(hall, true) ?? bestSplit(hall, false);
  return split?.flatMap(({ row, cols }) => cols.map((col) => hall.rows[row]!.ids[col]!)) ?? null;
}

function readHall(
  rows: readonly RuleRow[],
  count: number,
  type: SeatType | undefined,
  accessibleReleased = false,
): Hall {
  const pool = new Set(POOLS[type ?? (accessibleReleased ? 'RELEASED' : 'ANY')]);
  const { score, max } = seatScorer(rows);
  const prepared = rows.map(prepareRow);
  const wheelchair = type === 'WHEELCHAIR';
  // Weights keep the order strict: blocks before wheelchair spaces before the score.
  const spaceWeight = wheelchair ? count * max + 1 : 0;
  return {
    rows: prepared,
    count,
    needs: wheelchair ? 2 : 1,
    inPool: prepared.map((row) => row.types.map((t, col) => row.sellable[col]! && t !== null && pool.has(t))),
    price: prepared.map((row, r) =>
      row.types.map((t, col) => score(r, col) + (t === 'WHEELCHAIR' ? spaceWeight : 0)),
    ),
    blockWeight: (count + 1) * (spaceWeight + count * max + 1),
  };
}

/** Whether the pool holds `count` seats at all (and a wheelchair space when one is needed). */
function enoughSeats(hall: Hall): boolean {
  const seats = hall.inPool.reduce((sum, cells) => sum + cells.filter(Boolean).length, 0);
  const space = hall.rows.some((row, r) =>
    row.types.some((t, col) => t === 'WHEELCHAIR' && hall.inPool[r]![col]),
  );
  return seats >= hall.count && (hall.needs === 1 || space);
}

/** The first block of the least cost that `fits`, in the blocks' order (row, then column), or undefined. */
function cheapest(blocks: readonly Block[], fits: (block: Block) => boolean): Block | undefined {
  let best: Block | undefined;
  for (const block of blocks) if (fits(block) && (!best || block.cost < best.cost)) best = block;
  return best;
}

/** The blocks best first: by cost, then row, then column (a stable sort keeps the order among equal costs). */
function sortedByCost(blocks: Block[]): Block[] {
  return blocks.sort((a, b) => a.cost - b.cost);
}

/**
 * Every block of `count` adjacent pool seats (whole sofa pairs; a wheelchair space among them when needed), by row,
 * then column. A block can only leave alone the seat just beyond either end. Step 1 takes the cheapest of them in
 * one pass; only step 2, where every block leaves a seat alone, needs them sorted.
 */
function singleBlocks(hall: Hall): Block[] {
  const { count } = hall;
  const blocks: Block[] = [];
  hall.rows.forEach((row, r) => {
    const n = row.cells.length;
    const inPool = hall.inPool[r]!;
    const price = hall.price[r]!;
    const aloneIfNeighbourTaken = (col: number, beyond: number) =>
      col >= 0 && col < n && row.canStrand[col]! && (beyond < 0 || beyond >= n || row.closed[beyond]!);
    let run = 0;
    let cost = 0;
    let spaces = 0;
    for (let last = 0; last < n; last++) {
      run = inPool[last] ? run + 1 : 0;
      cost += inPool[last] ? price[last]! : 0;
      spaces += inPool[last] && row.types[last] === 'WHEELCHAIR' ? 1 : 0;
      const first = last - count + 1;
      if (run > count) {
        cost -= price[first - 1]!;
        spaces -= row.types[first - 1] === 'WHEELCHAIR' ? 1 : 0;
      }
      if (run === 0) cost = spaces = 0;
      if (run < count || row.pairSecond[first] || row.pairSecond[last + 1]) continue;
      if (hall.needs === 2 && spaces === 0) continue;
      const leavesSeatAlone =
        aloneIfNeighbourTaken(first - 1, first - 2) || aloneIfNeighbourTaken(last + 1, last + 2);
      blocks.push({ row: r, first, cost, leavesSeatAlone });
    }
  });
  return blocks;
}

/** Step 2: the best block that leaves a seat alone only where its row has no choice of the same seats leaving none. */
function bestExcusedBlock(hall: Hall, blocks: Block[]): Block | undefined {
  const excused = new Map<string, boolean>();
  return blocks.find((block) => {
    const row = hall.rows[block.row]!;
    const cols = Array.from({ length: hall.count }, (_, k) => block.first + k);
    const key = `${block.row}:${cols.map((col) => row.types[col]).sort()}`;
    if (!excused.has(key)) excused.set(key, nearestChoiceLeavingNoneAlone(row, cols) === null);
    return excused.get(key);
  });
}

/** Counter state: seats still to place times `needs`, plus 1 while a wheelchair space is still needed. */
function hallSearch(hall: Hall, r: number, strict: boolean): RowSearch {
  const row = hall.rows[r]!;
  const states = (hall.count + 1) * hall.needs;
  const n = row.cells.length;
  const next = new Int32Array(n * states).fill(-1);
  const cost = new Float64Array(n * states);
  for (let i = 0; i < n; i++) {
    if (!hall.inPool[r]![i]) continue;
    const space = row.types[i] === 'WHEELCHAIR';
    for (let s = hall.needs; s < states; s++) {
      const left = Math.floor(s / hall.needs) - 1;
      next[i * states + s] = left * hall.needs + (space ? 0 : s % hall.needs);
      cost[i * states + s] = hall.price[r]![i]!;
    }
  }
  return { states, choosable: hall.inPool[r]!, next, cost, blockCost: hall.blockWeight, strict };
}

/**
 * Steps 3 (strict) and 4: the best selection of `count` seats over the whole hall, as columns per row, or null.
 * Each row is searched once for every number of seats; a knapsack over all rows gives the fewest blocks; then
 * windows of 1, 2, 3, … consecutive rows are tried until one reaches that many blocks, and the best of that
 * width wins.
 */
function bestSplit(hall: Hall, strict: boolean): { row: number; cols: number[] }[] | null {
  const { count, needs, blockWeight } = hall;
  const searches = hall.rows.map((_, r) =>
    hall.inPool[r]!.some(Boolean) ? hallSearch(hall, r, strict) : null,
  );
  // rowBest[r][m * needs + h]: the cheapest m seats in row r, with a wheelchair space among them when h is 1.
  const nothing = emptyKnapsack(hall);
  const rowBest = hall.rows.map((row, r) => (searches[r] ? rowCosts(row, searches[r]) : nothing));
  const goal = count * needs + needs - 1;
  const whole = rowBest.reduce((knap, row) => addRow(hall, knap, row), emptyKnapsack(hall))[goal]!;
  if (whole === Infinity) return null;
  const fewest = Math.floor(whole / blockWeight);
  // windows[lo]: the knapsack over rows lo … lo + span.
  const windows = rowBest.map((row) => addRow(hall, emptyKnapsack(hall), row));
  for (let span = 0; span < hall.rows.length; span++) {
    let best: { lo: number; value: number } | undefined;
    for (let lo = 0; lo + span < hall.rows.length; lo++) {
      if (span > 0) windows[lo] = addRow(hall, windows[lo]!, rowBest[lo + span]!);
      const value = windows[lo]![goal]!;
      if (Math.floor(value / blockWeight) === fewest && (!best || value < best.value)) best = { lo, value };
    }
    if (best) return pickWindow(hall, searches, rowBest, best.lo, best.lo + span);
  }
  return null;
}

/** The seats the knapsack over rows lo … hi chose, read back from the last row to the first. */
function pickWindow(
  hall: Hall,
  searches: (RowSearch | null)[],
  rowBest: Float64Array[],
  lo: number,
  hi: number,
): { row: number; cols: number[] }[] {
  const { needs } = hall;
  let knap = emptyKnapsack(hall);
  const steps: { from: Int32Array; share: Int32Array }[] = [];
  for (let r = lo; r <= hi; r++) {
    const step = { from: new Int32Array(knap.length), share: new Int32Array(knap.length) };
    knap = addRow(hall, knap, rowBest[r]!, step);
    steps.push(step);
  }
  const picked: { row: number; cols: number[] }[] = [];
  let at = hall.count * needs + needs - 1;
  for (let r = hi; r >= lo; r--) {
    const step = steps[r - lo]!;
    const share = step.share[at]!;
    const search = searches[r];
    if (share >= needs && search) {
      const row = hall.rows[r]!;
      picked.unshift({ row: r, cols: pickRow(row, search, searchRow(row, search), share) });
    }
    at = step.from[at]!;
  }
  return picked;
}

function emptyKnapsack(hall: Hall): Float64Array {
  const knap = new Float64Array((hall.count + 1) * hall.needs).fill(Infinity);
  knap[0] = 0;
  return knap;
}

/**
 * Adds a row to a knapsack indexed `seats * needs + h` (h: a wheelchair space is among them). With `track`, per
 * new entry, `from` is the entry it grew from and `share` the row's counter state for what the row gives.
 */
function addRow(
  hall: Hall,
  knap: Float64Array,
  row: Float64Array,
  track?: { from: Int32Array; share: Int32Array },
): Float64Array {
  const { count, needs } = hall;
  const value = new Float64Array(knap.length).fill(Infinity);
  // From the most seats in the rows before: among equal totals, the earlier rows give the seats.
  for (let m = count; m >= 0; m--) {
    for (let h = 0; h < needs; h++) {
      const base = knap[m * needs + h]!;
      if (base === Infinity) continue;
      for (let k = 0; m + k <= count; k++) {
        for (let g = 0; g < needs; g++) {
          const to = (m + k) * needs + (h | g);
          const v = base + row[k * needs + g]!;
          if (v < value[to]!) {
            value[to] = v;
            if (track) {
              track.from[to] = m * needs + h;
              track.share[to] = k * needs + g;
            }
          }
        }
      }
    }
  }
  return value;
}
