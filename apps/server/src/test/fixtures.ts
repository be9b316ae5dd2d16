import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { halls, movies, seats, showtimes } from '../db/schema/index.ts';

export interface ShowtimeFixture {
  showtimeId: string;
  movieId: string;
  hallId: string;
  /** Seat ids by position: seatIds[row - 1][number - 1]. */
  seatIds: string[][];
  allSeatIds: string[];
}

/** Inserts a hall with rows × cols seats, a movie and one showtime straight into the database. */
export async function createShowtimeFixture(
  db: Queryable,
  opts: { rows?: number; cols?: number; startsAt?: Date; priceCents?: number; durationMinutes?: number } = {},
): Promise<ShowtimeFixture> {
  const rows = opts.rows ?? 5;
  const cols = opts.cols ?? 8;
  const [hall] = await db
    .insert(halls)
    .values({ name: `Fixture hall ${randomUUID().slice(0, 8)}`, rows, cols })
    .returning();
  const seatRows = await db
    .insert(seats)
    .values(
      Array.from({ length: rows * cols }, (_, i) => ({
        hallId: hall!.id,
        row: Math.floor(i / cols) + 1,
        number: (i % cols) + 1,
      })),
    )
    .returning();
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
      hallId: hall!.id,
      startsAt,
      endsAt: new Date(startsAt.getTime() + (duration + 15) * 60_000),
      priceCents: opts.priceCents ?? 1200,
    })
    .returning();
  const seatIds = Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cols }, (_, c) => seatRows.find((s) => s.row === r + 1 && s.number === c + 1)!.id),
  );
  return {
    showtimeId: showtime!.id,
    movieId: movie!.id,
    hallId: hall!.id,
    seatIds,
    allSeatIds: seatIds.flat(),
  };
}
