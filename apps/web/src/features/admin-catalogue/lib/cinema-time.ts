/**
 * Days and clock times on the cinema's clocks (its IANA time zone, `GET /api/settings`), whatever the viewer's own
 * zone: a schedule is planned, listed and drawn the way the box office reads its wall clock.
 */

const partsFormat = new Map<string, Intl.DateTimeFormat>();
function parts(timeZone: string, at: Date) {
  let format = partsFormat.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormat.set(timeZone, format);
  }
  const p = Object.fromEntries(format.formatToParts(at).map((x) => [x.type, x.value]));
  return {
    date: `${p.year}-${p.month}-${p.day}`,
    time: `${p.hour}:${p.minute}`,
    /** The wall clock read as if it were UTC, in ms: its difference to `at` is the zone's offset. */
    wall: Date.UTC(
      Number(p.year),
      Number(p.month) - 1,
      Number(p.day),
      Number(p.hour),
      Number(p.minute),
      Number(p.second),
    ),
  };
}

/** The calendar day (YYYY-MM-DD) an instant falls on in the zone. */
export const localDate = (at: Date | string, timeZone: string) => parts(timeZone, new Date(at)).date;

/** The clock time (HH:MM, 24 h) an instant shows in the zone. */
export const localTime = (at: Date | string, timeZone: string) => parts(timeZone, new Date(at)).time;

/**
 * The instant the zone's clocks show `date` `time` (default midnight); a time the clocks skip (spring forward) is
 * the instant they jump to.
 */
export function zonedInstant(date: string, timeZone: string, time = '00:00'): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const wanted = Date.UTC(y, m - 1, d, hh, mm);
  // Two rounds settle the offset on either side of a change of the clocks.
  let at = wanted - (parts(timeZone, new Date(wanted)).wall - wanted);
  at = wanted - (parts(timeZone, new Date(at)).wall - at);
  return new Date(at);
}

/** A calendar day `n` days after `date` (both YYYY-MM-DD). */
export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** ISO weekday of a calendar day: Monday 1 … Sunday 7. */
export function isoWeekday(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay() || 7;
}

/** The Monday of the week a calendar day falls in. */
export const mondayOf = (date: string) => addDays(date, 1 - isoWeekday(date));

/** The instants a calendar day of the zone starts and ends (23 or 25 hours on the days the clocks change). */
export const dayBounds = (date: string, timeZone: string) => ({
  from: zonedInstant(date, timeZone),
  to: zonedInstant(addDays(date, 1), timeZone),
});
