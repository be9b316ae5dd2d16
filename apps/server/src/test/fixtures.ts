import { randomUUID } from 'node:crypto';
import { rowLabel } from '@cinema/contract';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { bookings, halls, movies, seats, showtimes } from '../db/schema/index.ts';

export interface ShowtimeFixture {
  showtimeId: string;
  movieId: string;
  hallId: string;
  /** Seat ids by position: seatIds[row - 1][number - 1]. */
  seatIds: string[][];
  allSeatIds: string[];
}

/**
 * Inserts a hall with rows × cols seats (or takes the hall `hallId` as it is), a movie and one showtime straight into
 * the database.
 */
export async function createShowtimeFixture(
  db: Queryable,
  opts: {
    rows?: number;
    cols?: number;
    hallId?: string;
    startsAt?: Date;
    priceCents?: number;
    durationMinutes?: number;
  } = {},
): Promise<ShowtimeFixture> {
  if (opts.hallId)
    return showtimeIn(
      db,
      { id: opts.hallId },
      await db.select().from(seats).where(eq(seats.hallId, opts.hallId)),
      opts,
    );
  const { hall, seats: seatRows } = await insertPlainHall(db, opts.rows ?? 5, opts.cols ?? 8);
  return showtimeIn(db, hall, seatRows, opts);
}

/** A hall of rows × cols plain seats (rows A, B, …), written straight into the database; the editor's limits do not apply. */
export async function insertPlainHall(
  db: Queryable,
  rows: number,
  cols: number,
  name = `Fixture hall ${randomUUID().slice(0, 8)}`,
) {
  const [hall] = await db
    .insert(halls)
    .values({ name, rows, cols, rowLabels: Array.from({ length: rows }, (_, r) => rowLabel(r + 1)) })
    .returning();
  const seatRows = await db
    .insert(seats)
    .values(
      Array.from({ length: rows * cols }, (_, i) => ({
        hallId: hall!.id,
        row: Math.floor(i / cols) + 1,
        number: (i % cols) + 1,
        col: i % cols,
        rowLabel: rowLabel(Math.floor(i / cols) + 1),
      })),
    )
    .returning();
  return { hall: hall!, seats: seatRows };
}

async function showtimeIn(
  db: Queryable,
  hall: { id: string },
  seatRows: { id: string; row: number; number: number }[],
  opts: { startsAt?: Date; priceCents?: number; durationMinutes?: number },
): Promise<ShowtimeFixture> {
  const duration = opts.durationMinutes ?? 100;
  const [movie] = await db
    .insert(movies)
    .values({ title: 'Fixture Movie', description: 'A test film', durationMinutes: duration, rating: 'PG' })
    .returning();
  const startsAt = opts.startsAt ?? new Date(Date.now() + 24 * 3600 * 1000);
  const [showtime] = await db
    .insert(showtimes)
    .values({
      movieId: movie!.id,
      hallId: hall.id,
      startsAt,
      endsAt: new Date(startsAt.getTime() + (duration + 15) * 60_000),
      priceCents: opts.priceCents ?? 1200,
    })
    .returning();
  // By row, then by number (rows of a drawn layout may differ in length).
  const seatIds: string[][] = [];
  for (const s of [...seatRows].sort((a, b) => a.row - b.row || a.number - b.number)) {
    (seatIds[s.row - 1] ??= [])[s.number - 1] = s.id;
  }
  return {
    showtimeId: showtime!.id,
    movieId: movie!.id,
    hallId: hall.id,
    seatIds,
    allSeatIds: seatIds.flat(),
  };
}

/** Seats of a showtime sold to `userId` straight in the database (no order): a full house without a rush of sales. */
export async function sellSeatsDirectly(
  db: Queryable,
  showtimeId: string,
  userId: string,
  seatIds: string[],
) {
  if (seatIds.length === 0) return;
  await db.insert(bookings).values(
    seatIds.map((seatId) => ({
      showtimeId,
      seatId,
      userId,
      status: 'CONFIRMED' as const,
      priceCents: 1200,
      confirmedAt: new Date(),
    })),
  );
}
