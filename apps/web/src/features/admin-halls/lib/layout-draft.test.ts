import { describe, expect, it } from 'vitest';
import type { HallLayoutResponse } from '@cinema/contract';
import { blankDraft, draftOf, draftProblems, paint, placesOf, resize, type Draft } from './layout-draft';

/** A draft's rows as text: `s` standard, `p` premium, `w` wheelchair, `c` companion, `=` sofa, `.` gap; blocked in capitals. */
function drawn(draft: Draft): string[] {
  const letter = { STANDARD: 's', PREMIUM: 'p', SOFA: '=', WHEELCHAIR: 'w', COMPANION: 'c' } as const;
  return draft.rows.map((row) =>
    row.cells
      .map((cell) => {
        if (cell.kind === 'GAP') return '.';
        const ch = letter[cell.type];
        return cell.blocked ? ch.toUpperCase() : ch;
      })
      .join(''),
  );
}
const pairs = (draft: Draft, r: number) =>
  draft.rows[r]!.cells.map((cell) => (cell.kind === 'SEAT' ? (cell.pairId ?? '-') : '.'));

describe('the layout draft', () => {
  it('starts as rows of standard seats lettered A, B, …', () => {
    const draft = blankDraft(3, 4);
    expect(drawn(draft)).toEqual(['ssss', 'ssss', 'ssss']);
    expect(draft.rows.map((r) => r.label)).toEqual(['A', 'B', 'C']);
  });

  it('paints types and gaps, and keeps a seat blocked through a change of type', () => {
    let draft = blankDraft(1, 5);
    draft = paint(draft, 0, 2, 'GAP');
    draft = paint(draft, 0, 0, 'BLOCK', { blocked: true });
    draft = paint(draft, 0, 0, 'PREMIUM');
    draft = paint(draft, 0, 3, 'WHEELCHAIR');
    draft = paint(draft, 0, 4, 'COMPANION');
    expect(drawn(draft)).toEqual(['Ps.wc']);
    expect(paint(draft, 0, 2, 'BLOCK')).toBe(draft);
  });

  it('makes a sofa of a cell and its neighbour, on the side the stroke goes', () => {
    let draft = blankDraft(1, 6);
    // A stroke to the right: 0 pairs with 1, 1 is taken, 2 pairs with 3.
    for (const c of [0, 1, 2, 3]) draft = paint(draft, 0, c, 'SOFA', { toward: 'right' });
    expect(drawn(draft)).toEqual(['====ss']);
    expect(pairs(draft, 0)).toEqual(['S1', 'S1', 'S2', 'S2', '-', '-']);
    // At the row's end a sofa takes the seat on its left.
    draft = paint(draft, 0, 5, 'SOFA');
    expect(pairs(draft, 0)).toEqual(['S1', 'S1', 'S2', 'S2', 'S3', 'S3']);
    // A stroke to the left pairs leftwards first.
    let left = blankDraft(1, 4);
    left = paint(left, 0, 2, 'SOFA', { toward: 'left' });
    expect(drawn(left)).toEqual(['s==s']);
  });

  it('leaves the other half of a sofa a standard seat when one half is painted over', () => {
    let draft = paint(blankDraft(1, 4), 0, 0, 'SOFA');
    draft = paint(draft, 0, 1, 'GAP');
    expect(drawn(draft)).toEqual(['s.ss']);
    expect(pairs(draft, 0)).toEqual(['-', '.', '-', '-']);
    expect(draftProblems(draft)).toEqual([]);
  });

  it('blocks and unblocks both halves of a sofa', () => {
    let draft = paint(blankDraft(1, 3), 0, 1, 'SOFA');
    draft = paint(draft, 0, 2, 'BLOCK', { blocked: true });
    expect(drawn(draft)).toEqual(['s==']);
    expect(draft.rows[0]!.cells.map((c) => c.kind === 'SEAT' && c.blocked === true)).toEqual([
      false,
      true,
      true,
    ]);
    draft = paint(draft, 0, 1, 'BLOCK', { blocked: false });
    expect(draft.rows[0]!.cells.some((c) => c.kind === 'SEAT' && c.blocked)).toBe(false);
  });

  it('grows and shrinks from the back and the right; a sofa cut in half becomes a standard seat', () => {
    let draft = paint(blankDraft(2, 4), 0, 2, 'SOFA');
    draft = resize(draft, 3, 3);
    expect(drawn(draft)).toEqual(['sss', 'sss', 'sss']);
    expect(draft.rows.map((r) => r.label)).toEqual(['A', 'B', 'C']);
    draft = resize(draft, 1, 5);
    expect(drawn(draft)).toEqual(['sssss']);
    expect(resize(draft, 0, 999).cols).toBe(60);
  });

  it('names what stops a save, where it is', () => {
    let draft = paint(blankDraft(2, 3), 0, 0, 'COMPANION');
    draft = { ...draft, rows: [draft.rows[0]!, { ...draft.rows[1]!, label: ' ' }] };
    expect(draftProblems(draft)).toEqual([
      { message: 'Row 2 needs a label', rule: 'label_missing', values: { row: 2 } },
      {
        message: 'A companion seat in row A must be next to a wheelchair space',
        rule: 'companion_alone',
        values: { row: 'A' },
        place: '0:0',
      },
    ]);
    expect(draftProblems(paint(draft, 0, 1, 'WHEELCHAIR')).map((p) => p.message)).toEqual([
      'Row 2 needs a label',
    ]);
  });

  it('reads a saved hall, gaps filled in to the grid’s width, and finds where its seats stood', () => {
    const hall: HallLayoutResponse = {
      id: 'h1',
      name: 'Hall 9',
      cols: 4,
      seatCount: 3,
      rows: [
        {
          label: 'A',
          cells: [
            { kind: 'SEAT', type: 'STANDARD', id: 'a1', number: 1 },
            { kind: 'GAP' },
            { kind: 'SEAT', type: 'SOFA', pairId: 'A1', id: 'a2', number: 2 },
            { kind: 'SEAT', type: 'SOFA', pairId: 'A1', id: 'a3', number: 3, blocked: true },
          ],
        },
        { label: 'B', cells: [{ kind: 'SEAT', type: 'PREMIUM', id: 'b1', number: 1 }] },
      ],
    };
    const draft = draftOf(hall);
    expect(drawn(draft)).toEqual(['s.==', 'p...']);
    // Ids and numbers are the server's business: the editor keeps what a cell is.
    expect(draft.rows[0]!.cells[0]).toEqual({ kind: 'SEAT', type: 'STANDARD' });
    expect(draft.rows[0]!.cells[3]).toEqual({ kind: 'SEAT', type: 'SOFA', blocked: true, pairId: 'A1' });
    expect([...placesOf(hall, ['a3', 'b1'])]).toEqual(['0:3', '1:0']);
  });
});
