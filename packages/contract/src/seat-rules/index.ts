// Seat selection rules for halls with real layouts (DESIGN §6.2). Pure and import-free (no zod), so the web app
// and the server run the very same code.
export { SEAT_TYPES, type RuleCell, type RuleRow, type RuleSeat, type SeatType } from './types.ts';
export { strandedSeats, singleSeatGapVerdict, type SingleSeatGapVerdict } from './single-seat-gap.ts';
export { bestAvailable, type BestAvailableOptions } from './best-available.ts';
export { ACCESSIBLE_SEAT_TYPES, accessibleSeatsReleased } from './accessible-release.ts';
export { blockedSeats, companionsWithoutWheelchair, halfSofas } from './selection-rules.ts';
export {
  layoutProblems,
  plainLayout,
  MAX_HALL_SEATS,
  MAX_LAYOUT_COLS,
  MAX_LAYOUT_ROWS,
  type LayoutCell,
  type LayoutProblem,
  type LayoutRow,
  type LayoutRule,
} from './layout.ts';
