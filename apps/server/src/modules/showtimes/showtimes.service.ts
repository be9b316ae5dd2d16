import { and, asc, eq, gt, gte, lt, sql } from 'drizzle-orm';
import {
  CLEANING_MINUTES,
  DEFAULT_DURATION_MINUTES,
  type AdminShowtime,
  type CreateShowtimeBody,
  MANAGE_PAGE_SIZE,
  type ManagedShowtime,
  type ManageShowtimesQuery,
  type Showtime,
  type ShowtimeClash,
} from '@cinema/contract';
import type { Deps } from '../../deps.ts';
import { textArray } from '../../db/arrays.ts';
import { liveHold } from '../../db/live-booking.ts';
import {
  isStillReferenced,
  PG_EXCLUSION_VIOLATION,
  PG_FOREIGN_KEY_VIOLATION,
  pgErrorCode,
  runTogether,
  type Db,
  type Queryable,
} from '../../db/database.ts';
import { halls, bookings, movies, seats, showtimes } from '../../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';
import { PriceBook } from '../pricing/pricing.service.ts';
import { assertNoTicketsAtStake, deleteReleasableBookings } from './tickets-at-stake.ts';

/** When a showtime frees its hall: the movie's length (120 minutes when unknown) plus cleaning. */
export function showtimeEndsAt(startsAt: Date, durationMinutes: number | null): Date {
  const minutes = (durationMinutes ?? DEFAULT_DURATION_MINUTES) + CLEANING_MINUTES;
  return new Date(startsAt.getTime() + minutes * 60_000);
}

export const showtimeColumns = {
  id: showtimes.id,
  movieId: showtimes.movieId,
  auditoriumId: showtimes.hallId,
  auditorium: halls.name,
  startsAt: showtimes.startsAt,
  priceCents: showtimes.priceCents,
  priceCardId: showtimes.priceCardId,
  attributes: showtimes.attributes,
};

/**
 * A showtime row for the API: its start as ISO text, its price card only when it has chosen one, its attributes as
 * a list (PGlite reads an array as text).
 */
export const present = <
  T extends { startsAt: Date; priceCardId?: string | null; attributes: readonly string[] | string },
>({
  priceCardId,
  ...row
}: T) => ({
  ...row,
  startsAt: row.startsAt.toISOString(),
  attributes: textArray(row.attributes),
  ...(priceCardId && { priceCardId }),
});

/** A showtime's price as lists show it: the lowest price of the default ticket type under its price card. */
export const priced =
  (book: PriceBook) =>
  <
    T extends {
      startsAt: Date;
      priceCents: number;
      priceCardId: string | null;
      attributes: readonly string[] | string;
    },
  >(
    row: T,
  ) => ({
    ...row,
    priceCents: book.forShowtime(row).displayPriceCents,
  });

/** A movie's showtimes that have not started yet, in start order; 404 for an unknown movie. */
export async function listUpcomingShowtimes(
  db: Queryable,
  timeZone: string,
  movieId: string,
): Promise<Showtime[]> {
  const [movie] = await db.select({ id: movies.id }).from(movies).where(eq(movies.id, movieId)).limit(1);
  if (!movie) throw notFound('Movie not found');
  const rows = await db
    .select(showtimeColumns)
    .from(showtimes)
    .innerJoin(halls, eq(halls.id, showtimes.hallId))
    .where(and(eq(showtimes.movieId, movieId), gt(showtimes.startsAt, sql`now()`)))
    .orderBy(asc(showtimes.startsAt), asc(halls.name));
  const book = await PriceBook.load(db, timeZone);
  return rows.map(priced(book)).map(present);
}

/** Every showtime (of one movie when given) with its movie title and hall name, in start order. */
export async function listAdminShowtimes(
  db: Queryable,
  timeZone: string,
  movieId?: string,
): Promise<AdminShowtime[]> {
  const rows = await db
    .select({
      id: showtimes.id,
      movieId: showtimes.movieId,
      auditoriumId: showtimes.hallId,
      startsAt: showtimes.startsAt,
      priceCents: showtimes.priceCents,
      priceCardId: showtimes.priceCardId,
      attributes: showtimes.attributes,
      title: movies.title,
      hall: halls.name,
    })
    .from(showtimes)
    .innerJoin(movies, eq(movies.id, showtimes.movieId))
    .innerJoin(halls, eq(halls.id, showtimes.hallId))
    .where(movieId ? eq(showtimes.movieId, movieId) : undefined)
    .orderBy(asc(showtimes.startsAt), asc(halls.name));
  const book = await PriceBook.load(db, timeZone);
  return rows.map(({ title, hall, ...row }) => ({
    ...present(priced(book)(row)),
    Movie: { title },
    Auditorium: { name: hall },
  }));
}

const utcMinute = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The earliest showtime of the hall whose busy time intersects [startsAt, endsAt). */
async function findClash(
  db: Queryable,
  hallId: string,
  startsAt: Date,
  endsAt: Date,
): Promise<ShowtimeClash | null> {
  const [row] = await db
    .select({
      id: showtimes.id,
      movie: movies.title,
      auditorium: halls.name,
      startsAt: showtimes.startsAt,
      endsAt: showtimes.endsAt,
    })
    .from(showtimes)
    .innerJoin(movies, eq(movies.id, showtimes.movieId))
    .innerJoin(halls, eq(halls.id, showtimes.hallId))
    .where(and(eq(showtimes.hallId, hallId), lt(showtimes.startsAt, endsAt), gt(showtimes.endsAt, startsAt)))
    .orderBy(asc(showtimes.startsAt))
    .limit(1);
  return row ? { ...row, startsAt: row.startsAt.toISOString(), endsAt: row.endsAt.toISOString() } : null;
}

/**
 * How far ahead a showtime can be scheduled: further than any cinema plans, and far enough from the year 9999 that
 * its end (start + duration + cleaning) is still a timestamp both engines take.
 */
export const MAX_DAYS_AHEAD = 730;

/**
 * Schedules a showtime. The database's exclusion constraint refuses an overlap in the same hall (even between
 * two simultaneous requests); that becomes a 409 naming the showtime in the way.
 */
export async function createShowtime(db: Db, actor: Actor, input: CreateShowtimeBody): Promise<Showtime> {
  const startsAt = new Date(input.startsAt);
  if (startsAt.getTime() <= Date.now()) throw badRequest('A showtime cannot start in the past');
  if (startsAt.getTime() > Date.now() + MAX_DAYS_AHEAD * 24 * 3600_000)
    throw badRequest(`A showtime can start at most ${MAX_DAYS_AHEAD} days from now`);
  const [movie] = await db
    .select({ title: movies.title, durationMinutes: movies.durationMinutes })
    .from(movies)
    .where(eq(movies.id, input.movieId))
    .limit(1);
  if (!movie) throw notFound('Movie not found');
  const [hall] = await db
    .select({ name: halls.name })
    .from(halls)
    .where(eq(halls.id, input.auditoriumId))
    .limit(1);
  if (!hall) throw notFound('Hall not found');
  const endsAt = showtimeEndsAt(startsAt, movie.durationMinutes);
  try {
    const row = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(showtimes)
        .values({
          movieId: input.movieId,
          hallId: input.auditoriumId,
          startsAt,
          endsAt,
          priceCents: input.priceCents,
          priceCardId: input.priceCardId ?? null,
          attributes: input.attributes ?? [],
        })
        .returning({
          id: showtimes.id,
          movieId: showtimes.movieId,
          auditoriumId: showtimes.hallId,
          startsAt: showtimes.startsAt,
          priceCents: showtimes.priceCents,
          priceCardId: showtimes.priceCardId,
          attributes: showtimes.attributes,
        });
      await recordAudit(tx, actor, {
        action: 'showtime.create',
        subjectType: 'showtime',
        subjectId: created!.id,
        // Named, so the log reads without looking the ids up (they may be gone by then).
        after: { ...input, movie: movie.title, auditorium: hall.name, endsAt: endsAt.toISOString() },
      });
      return created!;
    });
    return present({ ...row, auditorium: hall.name });
  } catch (err) {
    const code = pgErrorCode(err);
    if (code === PG_EXCLUSION_VIOLATION) {
      const clash = await findClash(db, input.auditoriumId, startsAt, endsAt);
      if (!clash) throw conflict(`${hall.name} is busy at that time`, 'showtime_overlap');
      throw conflict(
        `${clash.auditorium} is busy: it overlaps "${clash.movie}" at ${utcMinute(new Date(clash.startsAt))}` +
          ` (until ${utcMinute(new Date(clash.endsAt))}, cleaning included)`,
        'showtime_overlap',
        { clash },
      );
    }
    // The movie, the hall or the price card was deleted between the checks and the insert.
    if (code === PG_FOREIGN_KEY_VIOLATION) throw notFound('Movie, hall or price card not found');
    throw err;
  }
}

/**
 * Deletes a showtime with its unpaid bookings; 409 has_sold_tickets (nothing deleted) when it sold a ticket or a
 * customer is paying for one of its seats right now.
 */
export async function deleteShowtime(
  { db, events }: Pick<Deps, 'db' | 'events'>,
  actor: Actor,
  id: string,
): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      // The row lock keeps new holds (which need a share lock through the foreign key) out meanwhile.
      const [showtime] = await tx
        .select({
          id: showtimes.id,
          movieId: showtimes.movieId,
          hallId: showtimes.hallId,
          startsAt: showtimes.startsAt,
          endsAt: showtimes.endsAt,
          priceCents: showtimes.priceCents,
          priceCardId: showtimes.priceCardId,
          attributes: showtimes.attributes,
        })
        .from(showtimes)
        .where(eq(showtimes.id, id))
        .for('update');
      if (!showtime) throw notFound('Showtime not found');
      await assertNoTicketsAtStake(tx, [id], 'showtime');
      await deleteReleasableBookings(tx, [id]);
      await tx.delete(showtimes).where(eq(showtimes.id, id));
      const [names] = await tx
        .select({ movie: movies.title, auditorium: halls.name })
        .from(movies)
        .innerJoin(halls, eq(halls.id, showtime.hallId))
        .where(eq(movies.id, showtime.movieId));
      await recordAudit(tx, actor, {
        action: 'showtime.delete',
        subjectType: 'showtime',
        subjectId: id,
        before: { ...showtime, ...names },
      });
    });
  } catch (err) {
    if (isStillReferenced(err)) {
      throw conflict('This showtime has sold tickets and cannot be deleted', 'has_sold_tickets');
    }
    throw err;
  }
  events.publish('seatMapStale', { showtimeId: id });
}

/**
 * Showtimes with their confirmed tickets and live holds (expired holds no longer count), in start order: every one,
 * or those of a span, a movie or a hall; a page of MANAGE_PAGE_SIZE with the number of all matches when `page` is
 * given.
 */
export async function listManagedShowtimes(
  db: Queryable,
  timeZone: string,
  query: ManageShowtimesQuery = {},
): Promise<{ showtimes: ManagedShowtime[]; total: number }> {
  const where = and(
    query.from ? gte(showtimes.startsAt, new Date(query.from)) : undefined,
    query.to ? lt(showtimes.startsAt, new Date(query.to)) : undefined,
    query.movieId ? eq(showtimes.movieId, query.movieId) : undefined,
    query.auditoriumId ? eq(showtimes.hallId, query.auditoriumId) : undefined,
  );
  const page = query.page
    ? db
        .select({ id: showtimes.id })
        .from(showtimes)
        .where(where)
        .orderBy(asc(showtimes.startsAt), asc(showtimes.id))
        .limit(MANAGE_PAGE_SIZE)
        .offset((query.page - 1) * MANAGE_PAGE_SIZE)
        .as('page')
    : undefined;
  const counted = db
    .select({
      id: showtimes.id,
      movieId: showtimes.movieId,
      movie: movies.title,
      auditoriumId: showtimes.hallId,
      auditorium: halls.name,
      startsAt: showtimes.startsAt,
      endsAt: showtimes.endsAt,
      priceCents: showtimes.priceCents,
      priceCardId: showtimes.priceCardId,
      attributes: showtimes.attributes,
      capacity: sql<number>`(select count(*) from ${seats} s
        where s.hall_id = ${showtimes.hallId} and not s.blocked and s.retired_at is null)`.mapWith(Number),
      confirmed: sql<number>`count(${bookings.id}) filter (where ${bookings.status} = 'CONFIRMED')`.mapWith(
        Number,
      ),
      held: sql<number>`count(${bookings.id}) filter (where ${liveHold})`.mapWith(Number),
    })
    .from(showtimes)
    .innerJoin(movies, eq(movies.id, showtimes.movieId))
    .innerJoin(halls, eq(halls.id, showtimes.hallId))
    .leftJoin(bookings, eq(bookings.showtimeId, showtimes.id));
  const [rows, total] = await runTogether(db, [
    () =>
      (page ? counted.innerJoin(page, eq(page.id, showtimes.id)) : counted)
        .where(page ? undefined : where)
        .groupBy(showtimes.id, movies.title, halls.name)
        .orderBy(asc(showtimes.startsAt), asc(halls.name)),
    async () =>
      page
        ? await db
            .select({ n: sql<number>`count(*)`.mapWith(Number) })
            .from(showtimes)
            .where(where)
            .then(([r]) => r!.n)
        : undefined,
  ] as const);
  const book = await PriceBook.load(db, timeZone);
  return {
    showtimes: rows
      .map(priced(book))
      .map(({ endsAt, ...row }) => ({ ...present(row), endsAt: endsAt.toISOString() })),
    total: total ?? rows.length,
  };
}

/**
 * Staff release a showtime's wheelchair spaces and companion seats to everyone now, before
 * ACCESSIBLE_RELEASE_MINUTES (DESIGN §7.5): from then on they sell as standard seats (hold_seats reads the time).
 * Once is enough: a second call keeps the first time. Audited; 409 showtime_started once it has begun.
 */
export async function releaseAccessibleSeats(
  { db, events, config }: Pick<Deps, 'db' | 'events' | 'config'>,
  actor: Actor,
  id: string,
): Promise<{ accessibleReleaseAt: string; releasedBy: 'staff' | 'clock' }> {
  const result = await db.transaction(async (tx) => {
    const [show] = await tx
      .select({
        startsAt: showtimes.startsAt,
        releasedAt: showtimes.accessibleReleasedAt,
        now: sql`now()`.mapWith((v: string | Date) => new Date(v)),
        movie: movies.title,
        auditorium: halls.name,
      })
      .from(showtimes)
      .innerJoin(movies, eq(movies.id, showtimes.movieId))
      .innerJoin(halls, eq(halls.id, showtimes.hallId))
      .where(eq(showtimes.id, id))
      .for('update', { of: showtimes });
    if (!show) throw notFound('Showtime not found');
    if (show.startsAt <= show.now) throw conflict('This showtime has already started', 'showtime_started');
    const byClock = show.startsAt.getTime() - config.accessibleReleaseMinutes * 60_000;
    if (show.releasedAt || byClock <= show.now.getTime()) {
      // Released already (by staff, or by the clock): nothing changes.
      return {
        at: show.releasedAt ?? new Date(byClock),
        by: show.releasedAt ? 'staff' : 'clock',
        changed: false,
      } as const;
    }
    await tx.update(showtimes).set({ accessibleReleasedAt: show.now }).where(eq(showtimes.id, id));
    await recordAudit(tx, actor, {
      action: 'showtime.accessible_release',
      subjectType: 'showtime',
      subjectId: id,
      before: { accessibleReleaseAt: new Date(byClock).toISOString() },
      after: {
        accessibleReleaseAt: show.now.toISOString(),
        movie: show.movie,
        auditorium: show.auditorium,
        startsAt: show.startsAt.toISOString(),
      },
    });
    return { at: show.now, by: 'staff', changed: true } as const;
  });
  if (result.changed) events.publish('seatMapStale', { showtimeId: id });
  return { accessibleReleaseAt: result.at.toISOString(), releasedBy: result.by };
}
