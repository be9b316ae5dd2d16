// The cinema's clock: calendar days, weekdays, weeks and times of day on the wall clocks of its time zone
// (CINEMA_TIME_ZONE, an IANA name the server shares at `GET /api/settings`), and the instants they name, both ways.
// The server (schedules, recurring showtimes, price cards, reports, the demo) and the web app (the day list, a hall's
// week) read the clock here, so both count a day the same way. Pure functions over the platform's own time zone data
// (Intl.DateTimeFormat): no dependency, no table of zones to keep up to date. It imports nothing but a type.
import type { Instant } from './door-rules.ts';

/** A calendar day, "YYYY-MM-DD"; its weekday is ISO's: Monday 1 … Sunday 7. */
type Day = string;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const ms = (t: Instant) => (typeof t === 'number' ? t : typeof t === 'string' ? Date.parse(t) : t.getTime());

const partsFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's wall clock at a whole second `t`, read as if it were UTC (milliseconds). Costs a formatToParts. */
function readWallClock(t: number, timeZone: string): number {
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
  const p: Record<string, string> = {};
  for (const part of format.formatToParts(t)) p[part.type] = part.value;
  // Some engines have written midnight as 24 under h23; it is the start of the day either way.
  return Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour! % 24, +p.minute!, +p.second!);
}

/**
 * The zone's offset at each UTC midnight read so far. formatToParts costs about 25 µs, so a year's report or a
 * schedule reading thousands of showtimes reads two offsets a day instead: where the offsets at the two midnights
 * around an instant agree, the clocks did not change in between (they change at most once a day), and only the day of
 * a change reads the instant itself. Bounded: some fifty years of days per zone, then it starts again.
 */
const midnightOffsets = new Map<string, Map<number, number>>();
const MAX_CACHED_DAYS = 20_000;

function offsetAtMidnight(day: number, timeZone: string): number {
  let zone = midnightOffsets.get(timeZone);
  if (!zone) midnightOffsets.set(timeZone, (zone = new Map()));
  let offset = zone.get(day);
  if (offset === undefined) {
    if (zone.size >= MAX_CACHED_DAYS) zone.clear();
    offset = readWallClock(day * DAY_MS, timeZone) - day * DAY_MS;
    zone.set(day, offset);
  }
  return offset;
}

/** How far the zone's clocks are ahead of UTC at `t` (milliseconds; negative west of Greenwich). */
function offsetAt(t: number, timeZone: string): number {
  const day = Math.floor(t / DAY_MS);
  const before = offsetAtMidnight(day, timeZone);
  if (before === offsetAtMidnight(day + 1, timeZone)) return before;
  const second = Math.floor(t / 1000) * 1000;
  return readWallClock(second, timeZone) - second;
}

/** The wall clock reading of an instant as if it were UTC: its date and time are the cinema's. */
const wallClock = (at: Instant, timeZone: string) => {
  const t = ms(at);
  if (!Number.isFinite(t)) throw new RangeError(`Not an instant: ${String(at)}`);
  return t + offsetAt(t, timeZone);
};

/** The calendar day ("YYYY-MM-DD") an instant falls on on the cinema's clocks. */
export function localDate(at: Instant, timeZone: string): Day {
  return new Date(wallClock(at, timeZone)).toISOString().slice(0, 10);
}

/** The time ("HH:MM", 24 hours) the cinema's clocks show at an instant. */
export function localTime(at: Instant, timeZone: string): string {
  return new Date(wallClock(at, timeZone)).toISOString().slice(11, 16);
}

/** The day, its ISO weekday and the "HH:MM" of an instant on the cinema's clocks (a price card's terms). */
export function localDayTime(at: Instant, timeZone: string): { date: Day; weekday: number; time: string } {
  const wall = new Date(wallClock(at, timeZone));
  const iso = wall.toISOString();
  return { date: iso.slice(0, 10), weekday: wall.getUTCDay() || 7, time: iso.slice(11, 16) };
}

/**
 * The instant a day and time ("HH:MM") on the cinema's clocks names. `exists` is false for a time the clocks skip
 * (02:30 when they jump from 02:00 to 03:00): the instant then is where that reading lands after the jump (03:30),
 * and a skipped midnight is the moment of the jump, the day's first instant. A time the clocks show twice (when they
 * go back) is its first occurrence.
 */
export function instantAt(date: Day, time: string, timeZone: string): { at: Date; exists: boolean } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  const wanted = Date.UTC(y, m - 1, d, h, min);
  // The instant is within 14 hours of the reading; the offsets a day either side cover a change of the clocks.
  const before = offsetAt(wanted - DAY_MS, timeZone);
  const offsets = new Set([before, offsetAt(wanted - 12 * HOUR_MS, timeZone)]);
  offsets.add(offsetAt(wanted + 12 * HOUR_MS, timeZone)).add(offsetAt(wanted + DAY_MS, timeZone));
  const shown = [...offsets]
    .map((offset) => wanted - offset)
    .filter((at) => wallClock(at, timeZone) === wanted)
    .sort((a, b) => a - b);
  if (shown.length > 0) return { at: new Date(shown[0]!), exists: true };
  return { at: new Date(wanted - before), exists: false };
}

/** The instant a calendar day starts on the cinema's clocks. */
export const dayStart = (date: Day, timeZone: string): Date => instantAt(date, '00:00', timeZone).at;

/** The instants a calendar day starts and ends (23 or 25 hours apart on the days the clocks change). */
export const dayBounds = (date: Day, timeZone: string): { from: Date; to: Date } => ({
  from: dayStart(date, timeZone),
  to: dayStart(addDays(date, 1), timeZone),
});

/** The ISO weekday (Monday 1 … Sunday 7) of a calendar day. */
export function isoWeekday(date: Day): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay() || 7;
}

/** The calendar day `days` days after `date` (before, when negative). */
export function addDays(date: Day, days: number): Day {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The calendar days from `from` to `to`, both included. */
export function daysBetween(from: Day, to: Day): Day[] {
  const days: Day[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The first day of the week `date` falls in, for weeks starting on ISO weekday `startsOn` (Monday 1, Friday 5). */
export function weekStart(date: Day, startsOn = 1): Day {
  return addDays(date, -((isoWeekday(date) - startsOn + 7) % 7));
}

/**
 * The film week a calendar day falls in: films open, and are booked and paid for, by weeks that start on one weekday
 * (Friday in much of the trade). Its first and last days, and the instants it starts and ends on the cinema's clocks
 * (168 hours, or 167 or 169 across a change of the clocks). For an instant, pass its `localDate`.
 */
export function filmWeek(
  date: Day,
  timeZone: string,
  startsOn = 5,
): { first: Day; last: Day; from: Date; to: Date } {
  const first = weekStart(date, startsOn);
  return {
    first,
    last: addDays(first, 6),
    from: dayStart(first, timeZone),
    to: dayStart(addDays(first, 7), timeZone),
  };
}

/** Whether a time of day ("HH:MM") is in a window of the day: from `from`, until before `to` ("24:00": midnight). */
export const inTimeWindow = (time: string, window: { from: string; to: string }): boolean =>
  window.from <= time && time < window.to;
