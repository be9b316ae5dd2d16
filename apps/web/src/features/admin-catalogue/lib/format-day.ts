import { formatDate } from '../../../lib/format';

/**
 * "Monday 30 November 2026" for a calendar day (its own date, no zone involved), in the viewer's language. The
 * cinema's clock itself (its days, weeks and times) is the contract's, `@cinema/contract/constants`.
 */
export function formatDay(date: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'full' }): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return formatDate(Date.UTC(y, m - 1, d, 12), { ...options, timeZone: 'UTC' });
}
