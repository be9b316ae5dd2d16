// The plain shapes the seat rules read. Nothing here imports anything: the web app's bundle carries these rules
// without zod, and the server feeds them from its own rows.

export const SEAT_TYPES = ['STANDARD', 'PREMIUM', 'SOFA', 'WHEELCHAIR', 'COMPANION'] as const;
export type SeatType = (typeof SEAT_TYPES)[number];

/**
 * One cell of a row as the rules see it. `taken` means the seat is not this customer's to choose: held, sold or
 * blocked. The customer's own candidate selection is passed beside the rows, not marked here.
 */
export type RuleCell =
  { kind: 'GAP' } | { kind: 'SEAT'; id: string; type: SeatType; pairId?: string; state: 'free' | 'taken' };

/** A row of cells in grid order, left to right: a cell's index is its grid column (gaps count). Row A is nearest the screen. */
export type RuleRow = readonly RuleCell[];

/** A seat as the hold rules see it (the server's seat rows fit this shape). */
export interface RuleSeat {
  id: string;
  type: SeatType;
  pairId?: string | null;
  blocked?: boolean;
}
