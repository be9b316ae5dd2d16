// CSV as the reports write it: comma-separated, CRLF line ends, money in the currency's major unit.

/** A cell as CSV: quoted when it must be, and text a spreadsheet would run as a formula made inert. */
export function cell(value: string | number | null, text = false): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = text && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
