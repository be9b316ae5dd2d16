import { formatDate } from '../../../lib/format';

/**
 * "Monday 30 November 2026" for a calendar day (its own date, no zone involved), in the viewer's language. Apart
 * from cinema-time.ts, which the browser tests import and which so stays free of the app's i18n.
 */
export function formatDay(date: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'full' }): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return formatDate(Date.UTC(y, m - 1, d, 12), { ...options, timeZone: 'UTC' });
}
