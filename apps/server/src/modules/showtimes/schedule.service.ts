import { and, asc, eq, gt, gte, lt, sql } from 'drizzle-orm';
import {
  addDays,
  dayBounds,
  dayStart,
  daysBetween,
  localDate,
  SCHEDULE_DAYS,
  SELLING_FAST_SHARE,
  type Availability,
  type Schedule,
} from '@cinema/contract';
import type { Queryable } from '../../db/database.ts';
import { liveBooking } from '../../db/live-booking.ts';
import { bookings, halls, movies, seats, showtimes } from '../../db/schema/index.ts';
import { badRequest } from '../../errors.ts';
import { listMovies, type MovieView } from '../movies/movies.service.ts';
import { PriceBook } from '../pricing/pricing.service.ts';
import { present, priced, showtimeColumns } from './showtimes.service.ts';

/** AVAILABLE, SELLING_FAST (under a fifth of the seats left) or SOLD_OUT. */
export function availabilityOf(seatsLeft: number, capacity: number): Availability {
  if (seatsLeft <= 0) return 'SOLD_OUT';
  return seatsLeft < capacity * SELLING_FAST_SHARE ? 'SELLING_FAST' : 'AVAILABLE';
}

/**
 * The public schedule (DESIGN §6.6): one day of the cinema's clocks (today unless chosen, at most 13 days ahead),
 * its showtimes still to start in start order with seats left and availability, the movies they show, and each
 * day on offer with the number of showtimes it has left; with `attributes`, only the showtimes having all of them.
 */
export async function getSchedule(
  db: Queryable,
  timeZone: string,
  date: string | undefined,
  view: MovieView = {},
  attributes: readonly string[] = [],
  genre?: string,
): Promise<Schedule> {
  const now = new Date();
  const today = localDate(now, timeZone);
  const offered = daysBetween(today, addDays(today, SCHEDULE_DAYS - 1));
  const day = date ?? today;
  if (!offered.includes(day)) {
    throw badRequest(`Choose a day from ${offered[0]} to ${offered.at(-1)}`);
  }
  const end = dayStart(addDays(offered.at(-1)!, 1), timeZone);
  const { from: dayFrom, to: dayEnd } = dayBounds(day, timeZone);

  // Only the showtimes having every attribute asked for (of a movie of the genre asked for), the days' counts too.
  const having = and(
    attributes.length > 0
      ? sql`${showtimes.attributes} @> array[${sql.join(
          attributes.map((a) => sql`${a}`),
          sql`, `,
        )}]::text[]`
      : undefined,
    genre
      ? sql`exists (select 1 from ${movies} m where m.id = ${showtimes.movieId}
          and m.genres @> array[${genre}]::text[])`
      : undefined,
  );
  const upcoming = await db
    .select({ startsAt: showtimes.startsAt })
    .from(showtimes)
    .where(and(gt(showtimes.startsAt, now), lt(showtimes.startsAt, end), having));
  const perDay = new Map(offered.map((d) => [d, 0]));
  for (const { startsAt } of upcoming) {
    const d = localDate(startsAt, timeZone);
    perDay.set(d, (perDay.get(d) ?? 0) + 1);
  }

  const rows = await db
    .select({
      ...showtimeColumns,
      capacity: sql<number>`(select count(*) from ${seats} s
        where s.hall_id = ${showtimes.hallId} and not s.blocked and s.retired_at is null)`.mapWith(Number),
      taken: sql<number>`(select count(*) from ${bookings}
        join ${seats} s on s.id = ${bookings.seatId}
        where ${bookings.showtimeId} = ${showtimes.id} and not s.blocked and ${liveBooking})`.mapWith(Number),
    })
    .from(showtimes)
    .innerJoin(halls, eq(halls.id, showtimes.hallId))
    // From the day's first instant, midnight included (a showtime at 00:00 is the day's own), or from now today.
    .where(
      and(
        dayFrom > now ? gte(showtimes.startsAt, dayFrom) : gt(showtimes.startsAt, now),
        lt(showtimes.startsAt, dayEnd),
        having,
      ),
    )
    .orderBy(asc(showtimes.startsAt), asc(halls.name));

  const book = await PriceBook.load(db, timeZone);
  const movieIds = new Set(rows.map((r) => r.movieId));
  const shown = movieIds.size === 0 ? [] : await listMovies(db, 'title', view);
  return {
    date: day,
    timeZone,
    days: offered.map((d) => ({ date: d, showtimes: perDay.get(d) ?? 0 })),
    movies: shown.filter((m) => movieIds.has(m.id)),
    showtimes: rows.map(priced(book)).map(({ taken, ...row }) => {
      const seatsLeft = Math.max(0, row.capacity - taken);
      return { ...present(row), seatsLeft, availability: availabilityOf(seatsLeft, row.capacity) };
    }),
  };
}
