import { addDays, dayBounds, instantAt, CLEANING_MINUTES } from '@cinema/contract/constants';

export interface TimelineShowtime {
  id: string;
  movie: string;
  startsAt: string;
  /** When the hall is free again: the film's end plus cleaning. */
  endsAt: string;
  confirmed?: number;
  capacity?: number;
}

export type Segment =
  | { kind: 'film'; from: Date; to: Date; showtime: TimelineShowtime; continued: boolean }
  | { kind: 'cleaning'; from: Date; to: Date; showtime: TimelineShowtime }
  | { kind: 'free'; from: Date; to: Date };

export interface TimelineDay {
  date: string;
  /** The part of the day drawn: the opening hours, widened to whatever is scheduled outside them. */
  from: Date;
  to: Date;
  segments: Segment[];
}

/** The cinema's day is drawn from 09:00 to midnight unless something is scheduled earlier. */
export const OPENS_AT = '09:00';

/**
 * A hall's week, day by day on the cinema's clocks: each showtime as its film and its cleaning after, and the free
 * time between them (within the opening hours). A showtime running past midnight continues on the next day.
 */
export function weekTimeline(monday: string, timeZone: string, showtimes: TimelineShowtime[]): TimelineDay[] {
  const sorted = [...showtimes].sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  return Array.from({ length: 7 }, (_, i) => {
    const date = addDays(monday, i);
    const { from: dayStart, to: dayEnd } = dayBounds(date, timeZone);
    const busy: Segment[] = [];
    for (const s of sorted) {
      const start = new Date(s.startsAt);
      const end = new Date(s.endsAt);
      if (end <= dayStart || start >= dayEnd) continue;
      const filmEnd = new Date(end.getTime() - CLEANING_MINUTES * 60_000);
      const clip = (t: Date) =>
        new Date(Math.min(Math.max(t.getTime(), dayStart.getTime()), dayEnd.getTime()));
      if (filmEnd > dayStart && start < dayEnd) {
        busy.push({
          kind: 'film',
          from: clip(start),
          to: clip(filmEnd),
          showtime: s,
          continued: start < dayStart,
        });
      }
      if (end > dayStart && filmEnd < dayEnd) {
        busy.push({ kind: 'cleaning', from: clip(filmEnd), to: clip(end), showtime: s });
      }
    }
    const opens = instantAt(date, OPENS_AT, timeZone).at;
    const from = new Date(Math.min(opens.getTime(), ...busy.map((b) => b.from.getTime())));
    const segments: Segment[] = [];
    let cursor = from;
    for (const b of busy) {
      if (b.from > cursor) segments.push({ kind: 'free', from: cursor, to: b.from });
      segments.push(b);
      if (b.to > cursor) cursor = b.to;
    }
    if (dayEnd > cursor) segments.push({ kind: 'free', from: cursor, to: dayEnd });
    return { date, from, to: dayEnd, segments };
  });
}

/** "2 h 05 min", "45 min". */
export function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${String(m).padStart(2, '0')} min`;
}
