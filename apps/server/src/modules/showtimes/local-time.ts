// The cinema's wall clock (CINEMA_TIME_ZONE) and instants, both ways, with the platform's own time zone data (Intl).
// A weekly 20:00 is 20:00 on the cinema's clocks before and after a daylight-saving change.

const partsFormats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    partsFormats.set(timeZone, format);
  }
  return format;
}

/** The wall-clock reading of an instant in a time zone, as if it were UTC (milliseconds). */
function wallClock(at: Date, timeZone: string): number {
  const p = Object.fromEntries(
    formatIn(timeZone)
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
}

/** The calendar day ("YYYY-MM-DD") of an instant on the cinema's clocks. */
export function localDate(at: Date, timeZone: string): string {
  return new Date(wallClock(at, timeZone)).toISOString().slice(0, 10);
}

/**
 * The instant a day and time on the cinema's clocks names. `exists` is false for a time the clocks skip (02:30 when
 * they jump from 02:00 to 03:00): the instant then is where that reading lands after the jump. A time the clocks show
 * twice (when they go back) is its first occurrence.
 */
export function instantAt(date: string, time: string, timeZone: string): { at: Date; exists: boolean } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  const wanted = Date.UTC(y, m - 1, d, h, min);
  // The zone's offset around the wanted reading, tried before and after, since the answer may cross a change.
  const offsets = [wanted - 12 * 3600_000, wanted + 12 * 3600_000].map(
    (probe) => wallClock(new Date(probe), timeZone) - probe,
  );
  const candidates = [...new Set(offsets)]
    .map((offset) => wanted - offset)
    .filter((at) => wallClock(new Date(at), timeZone) === wanted)
    .sort((a, b) => a - b);
  if (candidates.length > 0) return { at: new Date(candidates[0]!), exists: true };
  // Skipped by the clocks: keep the reading with the offset from before the change (02:30 → 03:30).
  return { at: new Date(wanted - offsets[0]!), exists: false };
}

/** The ISO weekday (Monday 1 … Sunday 7) of a calendar day. */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/** The calendar day `days` days after `day` (before, when negative). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The calendar days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}
