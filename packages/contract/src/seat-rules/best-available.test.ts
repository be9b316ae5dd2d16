import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bestAvailable } from './best-available.ts';
import { companionsWithoutWheelchair, halfSofas } from './selection-rules.ts';
import { singleSeatGapVerdict, strandedSeats } from './single-seat-gap.ts';
import { blocksOf, choices, hall, positions, rowsArb, seatsOf, units, type Seat } from './test-support.ts';
import { SEAT_TYPES, type RuleRow, type SeatType } from './types.ts';

describe('bestAvailable', () => {
  const aisles = '. . . . _ . . . . . . . . _ . . . .';

  it('seats a party in the middle of the hall, two thirds back', () => {
    // Ten rows: the ideal row is G (two thirds of the way from A to J); the middle of 18 columns is between
    // columns 9 and 10, seats 8 and 9 (seat numbers skip the aisles).
    const empty = hall(...Array.from({ length: 10 }, () => aisles));
    expect(bestAvailable(empty, 2)).toEqual(['G8', 'G9']);
    expect(bestAvailable(empty, 4)).toEqual(['G7', 'G8', 'G9', 'G10']);
    // Three seats cannot sit symmetrically: the tie goes to the left.
    expect(bestAvailable(empty, 3)).toEqual(['G7', 'G8', 'G9']);
  });

  it('moves off the ideal row before it moves far to the side', () => {
    const rows = Array.from({ length: 10 }, () => aisles);
    rows[6] = '. . . . _ . . x x x x . . _ . . . .';
    // G's best is G5–G6, three seats off centre; F and H have the centre seats one row (1.8 seat widths) away,
    // and the tie between F and H goes to the earlier row.
    expect(bestAvailable(hall(...rows), 2)).toEqual(['F8', 'F9']);
  });

  it('never leaves a seat alone when another block avoids it', () => {
    // Row A: A2–A3 is central but leaves A1 alone; A3–A4 leaves nobody alone.
    expect(bestAvailable(hall('. . . . x'), 2)).toEqual(['A3', 'A4']);
  });

  it('takes an adjacent block that leaves a seat alone when its row has no better choice', () => {
    // Each row has three free seats: two always leave one alone, and one block beats a split.
    expect(bestAvailable(hall('x . . . x', 'x . . . x'), 2)).toEqual(['B2', 'B3']);
  });

  it('splits the party into as few blocks as possible, in one row first', () => {
    expect(bestAvailable(hall('. . x . . x . .'), 4)).toEqual(['A1', 'A2', 'A4', 'A5']);
    expect(bestAvailable(hall('. . x . . x . .', '. . . x x x . .'), 5)).toEqual([
      'B1',
      'B2',
      'B3',
      'B7',
      'B8',
    ]);
  });

  it('prefers neighbouring rows to rows further apart when one row cannot take the party', () => {
    // Three seats in two blocks: A1–A2 with C4 scores better, but A and C are not neighbours; A and B are.
    expect(bestAvailable(hall('. . x x x x', 'x x x x x .', 'x x x . x x'), 3)).toEqual(['A1', 'A2', 'B6']);
  });

  it('never offers wheelchair spaces or companion seats unless asked', () => {
    expect(bestAvailable(hall('W C . . C W'), 4)).toBeNull();
    expect(bestAvailable(hall('W C . . C W'), 2)).toEqual(['A3', 'A4']);
  });

  it('offers wheelchair spaces and companion seats as standard seats once they are released (issue 37)', () => {
    expect(bestAvailable(hall('W C . . C W'), 4, { accessibleReleased: true })).toEqual([
      'A2',
      'A3',
      'A4',
      'A5',
    ]);
    expect(bestAvailable(hall('W C x x C W'), 1, { accessibleReleased: true })).toEqual(['A2']);
    // Released or not, a request of a type keeps to that type.
    expect(bestAvailable(hall('W C . .'), 2, { type: 'STANDARD', accessibleReleased: true })).toEqual([
      'A3',
      'A4',
    ]);
  });

  it('gives a wheelchair space and its companion for a wheelchair request of two', () => {
    expect(bestAvailable(hall('W W C C . .'), 2, { type: 'WHEELCHAIR' })).toEqual(['A2', 'A3']);
    expect(bestAvailable(hall('W . . C C'), 2, { type: 'WHEELCHAIR' })).toEqual(['A1', 'A4']);
    // Two spaces side by side sit nearer the middle, but one space and a companion keep a space for someone else.
    expect(bestAvailable(hall('C W W . . .'), 2, { type: 'WHEELCHAIR' })).toEqual(['A1', 'A2']);
    expect(bestAvailable(hall('C C . . . .'), 1, { type: 'WHEELCHAIR' })).toBeNull();
    expect(bestAvailable(hall('W C . .'), 1, { type: 'COMPANION' })).toBeNull();
  });

  it('sells sofas only as whole pairs', () => {
    expect(bestAvailable(hall('S S . . S S'), 2, { type: 'SOFA' })).toEqual(['A1', 'A2']);
    expect(bestAvailable(hall('S S . . S S'), 3, { type: 'SOFA' })).toBeNull();
    expect(bestAvailable(hall('S s . . S S'), 2, { type: 'SOFA' })).toEqual(['A5', 'A6']);
    // One seat from a hall of sofas and a standard seat: never half a sofa.
    expect(bestAvailable(hall('S S . S S'), 1)).toEqual(['A3']);
  });

  it('keeps to the asked type', () => {
    expect(bestAvailable(hall('. . P P . .'), 2, { type: 'PREMIUM' })).toEqual(['A3', 'A4']);
    expect(bestAvailable(hall('. . P P . .'), 2, { type: 'STANDARD' })).toEqual(['A1', 'A2']);
  });

  it('answers null when the free seats cannot make up the party, or the count is not a positive integer', () => {
    expect(bestAvailable(hall('. x . x'), 3)).toBeNull();
    expect(bestAvailable(hall('. . . .'), 0)).toBeNull();
    expect(bestAvailable(hall('. . . .'), 1.5)).toBeNull();
    expect(bestAvailable([], 1)).toBeNull();
  });

  const typeArb = fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 3 },
    { arbitrary: fc.constantFrom<SeatType>(...SEAT_TYPES), weight: 2 },
  );

  it('follows the rules on random halls, and keeps a party together whenever a brute-force search can', () => {
    fc.assert(
      fc.property(rowsArb(4, 8, 4), fc.integer({ min: 1, max: 4 }), typeArb, (text, count, type) => {
        const rows = hall(...text);
        const got = bestAvailable(rows, count, { type });
        const brute = bruteForce(rows, count, type);
        if (got === null) {
          expect(brute.any).toBe(false);
          return;
        }
        expectAllowed(rows, got, count, type);
        const key = keyOf(rows, got);
        if (brute.anyBlockAllowed) expect(key.blocks).toBe(1);
        // Leaving nobody alone, nothing beats it. Leaving a seat alone, it is either the best block the verdict
        // allows when no block leaves nobody alone, or, split, nothing leaving nobody alone exists and nothing
        // of fewer blocks exists at all.
        if (strandedSeats(rows, got).length === 0) expect(compareKeys(key, brute.bestClean!)).toBe(0);
        else if (key.blocks === 1) {
          expect(brute.bestClean === undefined || brute.bestClean.blocks > 1).toBe(true);
          expect(compareKeys(key, brute.bestAllowedBlock!)).toBe(0);
        } else {
          expect(brute.bestClean).toBeUndefined();
          expect(key.blocks).toBe(brute.fewestBlocks);
        }
        expect(bestAvailable(rows, count, { type })).toEqual(got);
      }),
      { numRuns: 2000 },
    );
  });

  it('follows the rules on larger random halls, for parties of up to ten', () => {
    fc.assert(
      fc.property(rowsArb(10, 30, 10), fc.integer({ min: 1, max: 10 }), typeArb, (text, count, type) => {
        const rows = hall(...text);
        const got = bestAvailable(rows, count, { type });
        if (got !== null) return expectAllowed(rows, got, count, type);
        // null: the pool's single seats and whole sofa pairs cannot add up to `count` (with a space if asked).
        const found = rows.flatMap((cells) => units(cells, (t) => pool(type).includes(t)));
        const singles = found.filter((unit) => unit.length === 1).length;
        const pairs = found.length - singles;
        const addsUp = Array.from({ length: pairs + 1 }, (_, k) => count - 2 * k).some(
          (n) => n >= 0 && n <= singles,
        );
        const space = seatsOf(rows).some((seat) => seat.type === 'WHEELCHAIR' && seat.state === 'free');
        expect(addsUp && (type !== 'WHEELCHAIR' || space)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });
});

/** Exactly `count` free seats of the pool, sofas whole, a space with companions, no avoidable seat left alone. */
function expectAllowed(rows: readonly RuleRow[], got: string[], count: number, type: SeatType | undefined) {
  const seats = got.map((id) => positions(rows).get(id)!.seat);
  expect(new Set(got).size).toBe(count);
  expect(seats.every((seat) => seat.state === 'free' && pool(type).includes(seat.type))).toBe(true);
  expect(halfSofas(seatsOf(rows), got)).toEqual([]);
  expect(companionsWithoutWheelchair(seatsOf(rows), got)).toEqual([]);
  if (type === 'WHEELCHAIR') expect(seats.some((seat) => seat.type === 'WHEELCHAIR')).toBe(true);
  expect(singleSeatGapVerdict(rows, got).ok).toBe(true);
}

function pool(type: SeatType | undefined): readonly SeatType[] {
  if (type === undefined) return ['STANDARD', 'PREMIUM', 'SOFA'];
  if (type === 'WHEELCHAIR') return ['WHEELCHAIR', 'COMPANION'];
  return type === 'COMPANION' ? [] : [type];
}

interface Key {
  blocks: number;
  span: number;
  spaces: number;
  score: number;
}

/** The documented order: blocks, rows spanned, wheelchair spaces, then the sum of squared distances. */
function keyOf(rows: readonly RuleRow[], ids: readonly string[]): Key {
  const at = positions(rows);
  const widest = Math.max(...rows.map((cells) => cells.length));
  const idealCol = (widest - 1) / 2;
  const idealRow = (2 * (rows.length - 1)) / 3;
  const chosen = ids.map((id) => at.get(id)!);
  const rowIndexes = chosen.map((p) => p.row);
  return {
    blocks: blocksOf(rows, ids).length,
    span: Math.max(...rowIndexes) - Math.min(...rowIndexes),
    spaces: chosen.filter((p) => p.seat.type === 'WHEELCHAIR').length,
    // Scaled by 100 so the sums stay whole numbers: dx² + (1.8 dy)².
    score: chosen.reduce(
      (sum, p) => sum + Math.round(100 * ((p.col - idealCol) ** 2 + 3.24 * (p.row - idealRow) ** 2)),
      0,
    ),
  };
}

function compareKeys(a: Key, b: Key): number {
  return a.blocks - b.blocks || a.span - b.span || a.spaces - b.spaces || a.score - b.score;
}

/** Every selection of `count` seats the request allows, by enumeration over whole units. */
function bruteForce(rows: readonly RuleRow[], count: number, type: SeatType | undefined) {
  const allowed = (t: SeatType) => pool(type).includes(t);
  const all = rows.flatMap((cells, r) =>
    units(cells, allowed).map((cols) => cols.map((col) => idAt(rows, r, col))),
  );
  const needsSpace = (ids: string[]) =>
    type !== 'WHEELCHAIR' || ids.some((id) => positions(rows).get(id)!.seat.type === 'WHEELCHAIR');
  let any = false;
  let bestAllowedBlock: Key | undefined;
  let bestClean: Key | undefined;
  let fewestBlocks = Infinity;
  for (const ids of choices(all, count)) {
    if (!needsSpace(ids)) continue;
    const key = keyOf(rows, ids);
    const verdictOk = singleSeatGapVerdict(rows, ids).ok;
    any ||= verdictOk;
    if (verdictOk) fewestBlocks = Math.min(fewestBlocks, key.blocks);
    if (key.blocks === 1 && verdictOk && (!bestAllowedBlock || compareKeys(key, bestAllowedBlock) < 0)) {
      bestAllowedBlock = key;
    }
    if (strandedSeats(rows, ids).length === 0 && (!bestClean || compareKeys(key, bestClean) < 0))
      bestClean = key;
  }
  return {
    any,
    anyBlockAllowed: bestAllowedBlock !== undefined,
    bestAllowedBlock,
    bestClean,
    fewestBlocks,
    allowed,
  };
}

function idAt(rows: readonly RuleRow[], r: number, col: number): string {
  return (rows[r]![col] as Seat).id;
}
