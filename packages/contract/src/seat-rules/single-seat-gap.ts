// Single-seat gaps (DESIGN §6.2), seats.io's "no orphan seats" rule
// (https://docs.seats.io/docs/renderer/config-selectionvalidators/): a selection may not leave one free seat alone
// between taken seats, or between a taken seat and a gap or the row's end, unless no other choice of the same
// seats in the same rows avoids it.
//
// Settled here:
// - Alone means: free, with each side a taken or selected seat, a gap or the row's end, and at least one side a
//   seat of this selection (a seat that was alone before is not this selection's doing).
// - Only STANDARD and PREMIUM seats can be left alone. WHEELCHAIR and COMPANION seats are sold to particular
//   customers, so one left free is fine; a SOFA pair is sold whole, so a free pair is two seats, and a lone free
//   sofa half is the sofa rule's business (halfSofas), not this one's. A free seat of any type next to a seat
//   still counts as a free neighbour.
// - "The same seats" means, per row, as many seats of each type as the selection has there (seats.io compares
//   within a category too): a customer who picked two STANDARD seats is never told to take PREMIUM ones, and a
//   wheelchair space with its companion is only weighed against another space with a companion. Sofas count
//   seat by seat and are only ever chosen as whole pairs.
// - The choice is judged on the whole selection: it is refused only when every row that leaves a seat alone has
//   another choice that leaves none. Rows are independent (a row's seats only touch that row), so each row is
//   searched on its own (row-search.ts), linearly in its length.
import { prepareRow, pickRow, rowCost, searchRow, type PreparedRow, type RowSearch } from './row-search.ts';
import { SEAT_TYPES, type RuleRow } from './types.ts';

export type SingleSeatGapVerdict = { ok: true } | { ok: false; stranded: string[]; alternative: string[] };

/** The free seats the selection would leave alone, in layout order (ids not in the layout are ignored). */
export function strandedSeats(rows: readonly RuleRow[], selectedIds: Iterable<string>): string[] {
  const selected = new Set(selectedIds);
  const stranded: string[] = [];
  for (const cells of rows) {
    const row = prepareRow(cells);
    const chosen = row.ids.map((id) => id !== '' && selected.has(id));
    const closed = (i: number) => i < 0 || i >= cells.length || chosen[i]! || row.closed[i]!;
    for (let i = 0; i < cells.length; i++) {
      if (chosen[i] || !row.canStrand[i] || !closed(i - 1) || !closed(i + 1)) continue;
      if (chosen[i - 1] || chosen[i + 1]) stranded.push(row.ids[i]!);
    }
  }
  return stranded;
}

// Not ok: `stranded` names the seats left alone (layout order); `alternative` is the nearest selection leaving
// none, in layout order: same seats per row and type, the smallest sum of column shifts (seats matched left to
// right, rows kept as chosen where they leave nobody alone), among equals the seats furthest left.
/** Whether the selection may stand under the single-seat-gap rule, and if not, what to offer instead. */
export function singleSeatGapVerdict(
  rows: readonly RuleRow[],
  selectedIds: Iterable<string>,
): SingleSeatGapVerdict {
  const selected = new Set(selectedIds);
  const stranded = strandedSeats(rows, selected);
  if (stranded.length === 0) return { ok: true };
  const alone = new Set(stranded);
  const alternative: string[] = [];
  for (const cells of rows) {
    const row = prepareRow(cells);
    const chosen = row.ids.flatMap((id, col) => (id !== '' && selected.has(id) ? [col] : []));
    if (!row.ids.some((id) => alone.has(id))) {
      // A row that leaves no seat alone stays as chosen: nothing nearer leaves none.
      alternative.push(...chosen.map((col) => row.ids[col]!));
      continue;
    }
    const nearer = nearestChoiceLeavingNoneAlone(row, chosen);
    if (nearer === null) return { ok: true };
    alternative.push(...nearer.map((col) => row.ids[col]!));
  }
  return { ok: false, stranded, alternative };
}

/** The columns of the nearest choice of `chosen`'s seats per type that leaves no seat alone, or null if none does. */
export function nearestChoiceLeavingNoneAlone(row: PreparedRow, chosen: readonly number[]): number[] | null {
  const search = sameSeatsSearch(row, chosen);
  const table = searchRow(row, search.search);
  if (rowCost(table, search.search, search.start) === Infinity) return null;
  return pickRow(row, search.search, table, search.start);
}

/** A search that places, per type, as many seats as `chosen` has, costing each by its shift from the original. */
function sameSeatsSearch(row: PreparedRow, chosen: readonly number[]): { search: RowSearch; start: number } {
  // The counter counts, per type, the seats still to place (mixed radix); state 0 is "all placed".
  const wanted = SEAT_TYPES.map((type) => chosen.filter((col) => row.types[col] === type).length);
  const radix: number[] = [];
  let states = 1;
  for (const k of wanted) {
    radix.push(states);
    states *= k + 1;
  }
  const start = wanted.reduce((sum, k, t) => sum + k * radix[t]!, 0);
  const total = chosen.length;
  const placedIn = (s: number) =>
    total - wanted.reduce((sum, k, t) => sum + (Math.floor(s / radix[t]!) % (k + 1)), 0);
  const n = row.cells.length;
  const choosable = row.types.map(
    (type, i) => row.sellable[i]! && type !== null && wanted[SEAT_TYPES.indexOf(type)]! > 0,
  );
  const next = new Int32Array(n * states).fill(-1);
  const cost = new Float64Array(n * states);
  for (let i = 0; i < n; i++) {
    const t = SEAT_TYPES.indexOf(row.types[i]!);
    if (!choosable[i]) continue;
    for (let s = 0; s < states; s++) {
      if (Math.floor(s / radix[t]!) % (wanted[t]! + 1) === 0) continue;
      next[i * states + s] = s - radix[t]!;
      cost[i * states + s] = Math.abs(i - chosen[placedIn(s)]!);
    }
  }
  return { search: { states, choosable, next, cost, blockCost: 0, strict: true }, start };
}
