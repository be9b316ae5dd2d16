import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { singleSeatGapVerdict, strandedSeats } from './single-seat-gap.ts';
import {
  hall,
  positions,
  referenceVerdict,
  rowsArb,
  seatsOf,
  shift,
  typeCounts,
  units,
} from './test-support.ts';

describe('strandedSeats', () => {
  it('names a free seat left between the selection and a taken seat', () => {
    expect(strandedSeats(hall('x . . . . .'), ['A3', 'A4'])).toEqual(['A2']);
  });

  it('names a free seat left between the selection and a gap or the row end', () => {
    expect(strandedSeats(hall('. . . _ . .'), ['A2', 'A3'])).toEqual(['A1']);
    expect(strandedSeats(hall('. . . _ . .'), ['A5'])).toEqual(['A4']);
    expect(strandedSeats(hall('. . . . .'), ['A2', 'A4'])).toEqual(['A1', 'A3', 'A5']);
  });

  it('leaves nothing alone when two free seats remain together', () => {
    expect(strandedSeats(hall('. . . . .'), ['A3', 'A4', 'A5'])).toEqual([]);
    expect(strandedSeats(hall('x . . . .'), ['A4', 'A5'])).toEqual([]);
  });

  it('does not blame the selection for a seat that was alone before it', () => {
    expect(strandedSeats(hall('x . x . .'), ['A4', 'A5'])).toEqual([]);
    expect(strandedSeats(hall('. _ . .'), ['A2', 'A3'])).toEqual([]);
  });

  it('lets wheelchair spaces and companion seats stay free alone', () => {
    expect(strandedSeats(hall('W . .'), ['A2', 'A3'])).toEqual([]);
    expect(strandedSeats(hall('x C . .'), ['A3', 'A4'])).toEqual([]);
  });

  it('counts a free wheelchair, companion or sofa seat as a free neighbour', () => {
    expect(strandedSeats(hall('W . . .'), ['A3', 'A4'])).toEqual([]);
    expect(strandedSeats(hall('S S . . .'), ['A4', 'A5'])).toEqual([]);
  });

  it('never names a sofa seat: a pair is sold whole, a lone half is the sofa rule’s business', () => {
    expect(strandedSeats(hall('x S S . .'), ['A4', 'A5'])).toEqual([]);
    expect(strandedSeats(hall('x S S x'), ['A2'])).toEqual([]);
  });

  it('treats a taken seat in the selection as selected and ignores unknown ids', () => {
    expect(strandedSeats(hall('. x . .'), ['A2', 'Z9'])).toEqual(['A1']);
  });

  it('looks at each row on its own', () => {
    expect(strandedSeats(hall('. . .', '. . .'), ['A2', 'A3', 'B1', 'B2'])).toEqual(['A1', 'B3']);
  });
});

describe('singleSeatGapVerdict', () => {
  it('passes a selection that leaves no seat alone', () => {
    expect(singleSeatGapVerdict(hall('. . . . .'), ['A1', 'A2'])).toEqual({ ok: true });
  });

  it('refuses an avoidable gap and offers the nearest selection that avoids it', () => {
    expect(singleSeatGapVerdict(hall('x . . . . .'), ['A3', 'A4'])).toEqual({
      ok: false,
      stranded: ['A2'],
      alternative: ['A2', 'A3'],
    });
  });

  it('breaks a tie between equally near selections towards the left', () => {
    // A1–A2 and A3–A4 both shift the seats by two columns in all: the left one wins.
    expect(singleSeatGapVerdict(hall('. . . . . .'), ['A2', 'A3'])).toEqual({
      ok: false,
      stranded: ['A1'],
      alternative: ['A1', 'A2'],
    });
  });

  it('lets a gap stand when no choice of as many seats in that row avoids it', () => {
    // Three free seats left, two wanted: one is always left alone.
    expect(singleSeatGapVerdict(hall('x . . . x', '. . . .'), ['A2', 'A3'])).toEqual({ ok: true });
  });

  it('keeps seat types: two standard seats are never moved onto premium ones', () => {
    expect(singleSeatGapVerdict(hall('x . . . P P P'), ['A3', 'A4'])).toEqual({
      ok: false,
      stranded: ['A2'],
      alternative: ['A2', 'A3'],
    });
    // Only premium seats could avoid the gap: the standard choice stands.
    expect(singleSeatGapVerdict(hall('x . . . x P P P P'), ['A2', 'A3'])).toEqual({ ok: true });
  });

  it('keeps a wheelchair space with its companion together rather than splitting them up', () => {
    // The only space-and-companion choice is this one, and it leaves A1 and A4 alone: it stands.
    expect(singleSeatGapVerdict(hall('. W C .'), ['A2', 'A3'])).toEqual({ ok: true });
  });

  it('moves sofa pairs whole', () => {
    expect(singleSeatGapVerdict(hall('x . S S S S .'), ['A5', 'A6'])).toEqual({ ok: true });
    expect(singleSeatGapVerdict(hall('x . S S . . S S x'), ['A3', 'A4'])).toEqual({
      ok: false,
      stranded: ['A2'],
      alternative: ['A7', 'A8'],
    });
  });

  it('keeps rows that leave nobody alone as they are and replaces only the others', () => {
    expect(singleSeatGapVerdict(hall('. . . .', 'x . . . . .'), ['A1', 'A2', 'B3', 'B4'])).toEqual({
      ok: false,
      stranded: ['B2'],
      alternative: ['A1', 'A2', 'B2', 'B3'],
    });
  });

  it('lets the whole selection stand when one row’s gap cannot be avoided', () => {
    expect(singleSeatGapVerdict(hall('x . . . x', 'x . . . . .'), ['A2', 'A3', 'B3', 'B4'])).toEqual({
      ok: true,
    });
  });

  it('stays fast on a 60-cell row with ten seats chosen', () => {
    const row = '. '.repeat(60);
    const picked = [2, 5, 9, 14, 20, 27, 33, 41, 48, 55].map((n) => `A${n}`);
    const started = Date.now();
    const verdict = singleSeatGapVerdict(hall(row), picked);
    expect(verdict.ok).toBe(false);
    expect(Date.now() - started).toBeLessThan(200);
  });

  it('agrees with a brute-force search over every choice on small rows', () => {
    const layoutAndSelection = rowsArb(3, 12).chain((rows) => {
      const free = seatsOf(hall(...rows)).filter((seat) => seat.state === 'free');
      const pick = fc.subarray(
        free.map((seat) => seat.id),
        { maxLength: Math.min(4, free.length) },
      );
      return fc.tuple(fc.constant(rows), pick);
    });
    fc.assert(
      fc.property(layoutAndSelection, ([text, selected]) => {
        const rows = hall(...text);
        const verdict = singleSeatGapVerdict(rows, selected);
        const reference = referenceVerdict(rows, selected);
        expect(verdict.ok).toBe(reference.ok);
        if (verdict.ok || reference.ok) return;
        expect(verdict.stranded).toEqual(reference.stranded);
        // The alternative leaves nobody alone, keeps each row's seats per type, uses free seats (sofas whole),
        // and nothing the brute force found is nearer.
        expect(strandedSeats(rows, verdict.alternative)).toEqual([]);
        const at = positions(rows);
        rows.forEach((cells, r) => {
          const cols = (ids: readonly string[]) =>
            ids.flatMap((id) => (at.get(id)?.row === r ? [at.get(id)!.col] : []));
          const before = cols(selected);
          const after = cols(verdict.alternative);
          expect(typeCounts(cells, after)).toBe(typeCounts(cells, before));
          if (!reference.nearest.has(r)) return expect(after).toEqual(before);
          const allowed = units(cells, () => true).flat();
          expect(after.every((col) => allowed.includes(col))).toBe(true);
          expect(shift(after, before)).toBe(reference.nearest.get(r));
        });
        expect(singleSeatGapVerdict(rows, selected)).toEqual(verdict);
      }),
      { numRuns: 2000 },
    );
  });
});
