/** Money as dollars with two decimals: 1200 → "$12.00". */
export const formatPrice = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** A timestamp in the viewer's locale and time zone. */
export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const formatTime = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, { timeStyle: 'short' });

/** Rows are lettered on the seat map and tickets: 1 → "A", 27 → "AA". */
export function rowLabel(row: number): string {
  let label = '';
  for (let n = row; n > 0; n = Math.floor((n - 1) / 26))
    label = String.fromCharCode(65 + ((n - 1) % 26)) + label;
  return label;
}

/** "Row C, Seat 7" */
export const seatLabel = (seat: { row: number; number: number }) =>
  `Row ${rowLabel(seat.row)}, Seat ${seat.number}`;
