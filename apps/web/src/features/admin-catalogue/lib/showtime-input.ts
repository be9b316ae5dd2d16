import { DEFAULT_PRICE_CENTS, toMinor } from '@cinema/contract/constants';

/**
 * A datetime-local value ("2026-05-01T19:30", seconds optional) read as the viewer's local time and returned as a
 * UTC ISO timestamp; null when it is not a real date and time.
 */
export function localDateTimeToUtcIso(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second = 0] = m
    .slice(1)
    .map((part) => Number(part ?? 0)) as number[];
  const local = new Date(year!, month! - 1, day, hour, minute, second);
  // The Date constructor rolls 31 April over to 1 May; such a value was never a real date.
  if (Number.isNaN(local.getTime()) || local.getMonth() !== month! - 1 || local.getDate() !== day)
    return null;
  return local.toISOString();
}

/**
 * The price typed in the currency's major unit, in its minor units ("12.50" dollars → 1250, "1200" yen → 1200); 1200
 * minor units when it is not a valid non-zero amount of the currency.
 */
export function priceCentsFromText(text: string, currency: string): number {
  const cents = toMinor(text, currency);
  return cents === null || cents === 0 ? DEFAULT_PRICE_CENTS : cents;
}

/** An ISO timestamp as a datetime-local value in the viewer's time zone (for the input's min). */
export function utcIsoToLocalDateTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
