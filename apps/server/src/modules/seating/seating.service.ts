import type { FastifyInstance } from 'fastify';
import { and, asc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import {
  MAX_LIVE_HOLDS_PER_SHOWTIME,
  type HoldResponse,
  type SeatMap,
  type SeatMapSeat,
  type SeatStatus,
} from '@cinema/contract';
import {
  PG_DEADLOCK,
  PG_SERIALIZATION_FAILURE,
  pgErrorCode,
  type Db,
  type Queryable,
} from '../../db/database.ts';
import { auditoriums, bookings, movies, seats, showtimes } from '../../db/schema/index.ts';
import { AppError, badRequest, conflict, notFound } from '../../errors.ts';

/** A live booking occupies its seat: confirmed, or held and not yet expired (lazy expiry at `expiresAt`). */
const isLive = () =>
  or(eq(bookings.status, 'CONFIRMED'), and(eq(bookings.status, 'HELD'), gt(bookings.expiresAt, sql`now()`)));

/** One seat of a stored seat map, with the live booking that occupies it (if any), whoever holds it. */
export interface SnapshotSeat {
  id: string;
  row: number;
  number: number;
  status: SeatStatus;
  holderId: string | null;
  bookingId: string | null;
  expiresAt: Date | null;
}

/** A showtime's seat map for every caller at once (the seat-map cache keeps these). */
export interface SeatMapSnapshot {
  showtime: SeatMap['showtime'];
  seats: SnapshotSeat[];
  /** The database clock at the read: holds expire by that clock, not by this process's. */
  readAt: Date;
}

/** Reads a showtime's seat map with every live booking; 404 when the showtime does not exist. */
export async function loadSeatMap(db: Queryable, showtimeId: string): Promise<SeatMapSnapshot> {
  // Both queries run at once; the seat query finds the hall through the showtime itself.
  const [showRows, seatRows] = await Promise.all([
    db
      .select({
        id: showtimes.id,
        startsAt: showtimes.startsAt,
        priceCents: showtimes.priceCents,
        auditoriumId: showtimes.auditoriumId,
        auditorium: auditoriums.name,
        movieId: movies.id,
        movieTitle: movies.title,
        readAt: sql`now()`.mapWith((v: string | Date) => new Date(v)),
      })
      .from(showtimes)
      .innerJoin(auditoriums, eq(auditoriums.id, showtimes.auditoriumId))
      .innerJoin(movies, eq(movies.id, showtimes.movieId))
      .where(eq(showtimes.id, showtimeId))
      .limit(1),
    db
      .select({
        id: seats.id,
        row: seats.row,
        number: seats.number,
        bookingId: bookings.id,
        bookingStatus: bookings.status,
        bookingUserId: bookings.userId,
        expiresAt: bookings.expiresAt,
      })
      .from(seats)
      .leftJoin(bookings, and(eq(bookings.seatId, seats.id), eq(bookings.showtimeId, showtimeId), isLive()))
      .where(
        eq(
          seats.auditoriumId,
          sql`(select ${showtimes.auditoriumId} from ${showtimes} where ${showtimes.id} = ${showtimeId})`,
        ),
      )
      .orderBy(asc(seats.row), asc(seats.number)),
  ]);
  const show = showRows[0];
  if (!show) throw notFound('Showtime not found');

  return {
    showtime: {
      id: show.id,
      startsAt: show.startsAt.toISOString(),
      priceCents: show.priceCents,
      auditoriumId: show.auditoriumId,
      auditorium: show.auditorium,
      movie: { id: show.movieId, title: show.movieTitle },
    },
    seats: seatRows.map((s): SnapshotSeat => {
      const status: SeatStatus =
        s.bookingStatus === 'CONFIRMED' ? 'CONFIRMED' : s.bookingStatus === 'HELD' ? 'HELD' : 'AVAILABLE';
      const held = status === 'HELD';
      return {
        id: s.id,
        row: s.row,
        number: s.number,
        status,
        holderId: held ? s.bookingUserId : null,
        bookingId: held ? s.bookingId : null,
        expiresAt: held ? s.expiresAt : null,
      };
    }),
    readAt: show.readAt,
  };
}

/** One seat as a caller sees it: their own live holds carry heldByMe, the booking id and its expiry. */
export function presentSeat(seat: SnapshotSeat, userId: string | null): SeatMapSeat {
  const shown: SeatMapSeat = { id: seat.id, row: seat.row, number: seat.number, status: seat.status };
  if (seat.status === 'HELD' && userId && seat.holderId === userId) {
    shown.heldByMe = true;
    shown.bookingId = seat.bookingId!;
    shown.expiresAt = seat.expiresAt!.toISOString();
  }
  return shown;
}

/** The seat map of a showtime: every seat of its hall with its status; the caller's own holds are marked. */
export async function getSeatMap(db: Queryable, showtimeId: string, userId: string | null): Promise<SeatMap> {
  const snapshot = await loadSeatMap(db, showtimeId);
  return { showtime: snapshot.showtime, seats: snapshot.seats.map((s) => presentSeat(s, userId)) };
}

const RETRYABLE = new Set([PG_SERIALIZATION_FAILURE, PG_DEADLOCK]);

/** Runs a transaction again (a few times, with jitter) when the database aborts it as a deadlock victim. */
async function withRetry<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts || err instanceof AppError || !RETRYABLE.has(pgErrorCode(err) ?? '')) throw err;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}

// The hold itself is one statement (the hold_seats function; migration 0007 holds its current text): one round trip, planned once per
// connection. Built once per database handle, since building a query costs more than running it.
const holdStatements = new WeakMap<Db, ReturnType<typeof prepareHold>>();

function prepareHold(db: Db) {
  return db
    .select({
      outcome: sql<string>`outcome`,
      id: sql<string>`booking_id`,
      seatId: sql<string>`held_seat_id`,
      expiresAt: sql`held_until`.mapWith((v: string | Date | null) => (v === null ? null : new Date(v))),
      detail: sql<string | null>`detail`,
    })
    .from(
      sql`hold_seats(${sql.placeholder('showtimeId')}::uuid, ${sql.placeholder('userId')}::uuid,
        ${sql.placeholder('seatIds')}::uuid[], ${sql.placeholder('minutes')}::float8,
        ${sql.placeholder('maxLive')}::int)`,
    )
    .prepare('hold_seats');
}

/** The error for a hold that hold_seats refused (`outcome` names the reason, `detail` carries its JSON). */
function holdRefusal(outcome: string, detail: string | null): AppError {
  switch (outcome) {
    case 'showtime_not_found':
      return notFound('Showtime not found');
    case 'showtime_started':
      return conflict('This showtime has already started', 'showtime_started');
    case 'seats_not_in_hall':
      return badRequest('Some seats are not in this showtime’s hall', {
        seatIds: JSON.parse(detail ?? '[]') as string[],
      });
    case 'hold_limit': {
      const held = Number(detail);
      return conflict(
        `You can hold at most ${MAX_LIVE_HOLDS_PER_SHOWTIME} seats for a showtime (you hold ${held})`,
        'hold_limit',
        { held },
      );
    }
    case 'seat_unavailable':
      return conflict('Some seats are no longer available', 'seat_unavailable', {
        seatIds: JSON.parse(detail ?? '[]') as string[],
      });
    default:
      throw new Error(`hold_seats answered an unknown outcome: ${outcome}`);
  }
}

/**
 * Holds the given seats of a showtime for the user, all or nothing, then tells every open seat map. The
 * partial unique index over live bookings decides who wins a seat, never a read in this code.
 */
export async function holdSeats(
  app: FastifyInstance,
  input: { showtimeId: string; userId: string; seatIds: string[] },
): Promise<HoldResponse> {
  const { userId } = input;
  // Room names and comparisons use the database's lower-case spelling of ids.
  const showtimeId = input.showtimeId.toLowerCase();
  // A fixed order: overlapping requests then wait for each other instead of deadlocking.
  const seatIds = [...new Set(input.seatIds.map((id) => id.toLowerCase()))].sort();
  if (seatIds.length !== input.seatIds.length) throw badRequest('Each seat may be listed only once');

  const db = app.database.db;
  let statement = holdStatements.get(db);
  if (!statement) holdStatements.set(db, (statement = prepareHold(db)));
  const rows = await withRetry(() =>
    statement.execute({
      showtimeId,
      userId,
      seatIds,
      minutes: app.config.holdMinutes,
      maxLive: MAX_LIVE_HOLDS_PER_SHOWTIME,
    }),
  );
  if (rows[0]?.outcome !== 'held') throw holdRefusal(rows[0]?.outcome ?? 'empty', rows[0]?.detail ?? null);
  const held = rows as { id: string; seatId: string; expiresAt: Date }[];

  app.realtime.broadcastSeats({
    showtimeId,
    seats: held.map((b) => ({ id: b.seatId, status: 'HELD' as const })),
  });
  return { bookingIds: held.map((b) => b.id), expiresAt: held[0]!.expiresAt.toISOString() };
}

/** Cancels the caller's own live holds among the given bookings; anything else is left alone and not counted. */
export async function cancelHolds(
  app: FastifyInstance,
  input: { userId: string; bookingIds: string[] },
): Promise<{ ok: true; cancelled: number }> {
  const cancelled = await withRetry(() =>
    app.database.db
      .update(bookings)
      .set({ status: 'CANCELLED', updatedAt: sql`now()` })
      .where(
        and(
          inArray(bookings.id, input.bookingIds),
          eq(bookings.userId, input.userId),
          eq(bookings.status, 'HELD'),
          gt(bookings.expiresAt, sql`now()`),
        ),
      )
      .returning({ showtimeId: bookings.showtimeId, seatId: bookings.seatId }),
  );
  broadcastAvailable(app, cancelled);
  return { ok: true, cancelled: cancelled.length };
}

/** Tells each showtime's room which of its seats became free. */
export function broadcastAvailable(app: FastifyInstance, freed: { showtimeId: string; seatId: string }[]) {
  const byShowtime = new Map<string, string[]>();
  for (const f of freed) byShowtime.set(f.showtimeId, [...(byShowtime.get(f.showtimeId) ?? []), f.seatId]);
  for (const [showtimeId, seatIds] of byShowtime) {
    app.realtime.broadcastSeats({
      showtimeId,
      seats: seatIds.map((id) => ({ id, status: 'AVAILABLE' as const })),
    });
  }
}

/** True when a showtime with this id exists. */
export async function showtimeExists(db: Queryable, showtimeId: string): Promise<boolean> {
  const rows = await db
    .select({ id: showtimes.id })
    .from(showtimes)
    .where(eq(showtimes.id, showtimeId))
    .limit(1);
  return rows.length > 0;
}
