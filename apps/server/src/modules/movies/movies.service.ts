import { createHash } from 'node:crypto';
import { asc, desc, eq } from 'drizzle-orm';
import { MAX_POSTER_BYTES, type Movie } from '@cinema/contract';
import { PG_FOREIGN_KEY_VIOLATION, pgErrorCode, type Db, type Queryable } from '../../db/database.ts';
import type { Deps } from '../../deps.ts';
import { movies, posters, showtimes } from '../../db/schema/index.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { assertNoTicketsAtStake, deleteReleasableBookings } from '../showtimes/tickets-at-stake.ts';
import { detectPosterType } from './poster-image.ts';

export interface NewMovie {
  title: string;
  description?: string;
  durationMinutes?: number;
  rating?: string;
}

const movieColumns = {
  id: movies.id,
  title: movies.title,
  description: movies.description,
  durationMinutes: movies.durationMinutes,
  rating: movies.rating,
  posterId: movies.posterId,
};

interface MovieRow {
  id: string;
  title: string;
  description: string | null;
  durationMinutes: number | null;
  rating: string | null;
  posterId: string | null;
}

/** Posters never change (a new upload gets a new id), so their URL can be cached forever. */
export const posterUrl = (posterId: string | null) => (posterId ? `/api/posters/${posterId}` : null);

function presentMovie(row: MovieRow): Movie {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    durationMinutes: row.durationMinutes,
    rating: row.rating,
    posterUrl: posterUrl(row.posterId),
  };
}

/** Every movie: by title for customers, newest first for staff. */
export async function listMovies(db: Queryable, order: 'title' | 'newest' = 'title'): Promise<Movie[]> {
  const rows = await db
    .select(movieColumns)
    .from(movies)
    .orderBy(
      ...(order === 'title'
        ? [asc(movies.title), asc(movies.id)]
        : [desc(movies.createdAt), asc(movies.title)]),
    );
  return rows.map(presentMovie);
}

/** One movie, or 404. */
export async function getMovie(db: Queryable, id: string): Promise<Movie> {
  const [row] = await db.select(movieColumns).from(movies).where(eq(movies.id, id)).limit(1);
  if (!row) throw notFound('Movie not found');
  return presentMovie(row);
}

/** Checks a poster by its content and size: 415 unless JPEG, PNG or WebP, 413 above the limit. */
export function checkPoster(data: Buffer) {
  if (data.length > MAX_POSTER_BYTES) {
    throw new AppError(413, 'payload_too_large', 'Poster must be at most 5 MB');
  }
  const contentType = detectPosterType(data);
  if (!contentType) {
    throw new AppError(415, 'unsupported_media_type', 'Poster must be a JPEG, PNG or WebP image');
  }
  return contentType;
}

/** Creates a movie and stores its poster (if any) in the database, so every server process can serve it. */
export async function createMovie(db: Db, input: NewMovie, poster?: Buffer): Promise<Movie> {
  const contentType = poster ? checkPoster(poster) : null;
  const row = await db.transaction(async (tx) => {
    let posterId: string | null = null;
    if (poster && contentType) {
      const [stored] = await tx
        .insert(posters)
        .values({
          contentType,
          data: poster,
          sizeBytes: poster.length,
          etag: `"${createHash('sha256').update(poster).digest('base64url').slice(0, 27)}"`,
        })
        .returning({ id: posters.id });
      posterId = stored!.id;
    }
    const [movie] = await tx
      .insert(movies)
      .values({
        title: input.title,
        description: input.description || null,
        durationMinutes: input.durationMinutes ?? null,
        rating: input.rating || null,
        posterId,
      })
      .returning(movieColumns);
    return movie!;
  });
  return presentMovie(row);
}

/**
 * Deletes a movie with its showtimes, their unpaid holds and its poster; 409 has_sold_tickets (and nothing
 * deleted) when any of its showtimes sold a ticket or is being paid for.
 */
export async function deleteMovie({ db, events }: Pick<Deps, 'db' | 'events'>, id: string): Promise<void> {
  let showtimeIds: string[] = [];
  try {
    await db.transaction(async (tx) => {
      const [movie] = await tx
        .select({ id: movies.id, posterId: movies.posterId })
        .from(movies)
        .where(eq(movies.id, id))
        .for('update');
      if (!movie) throw notFound('Movie not found');
      // Locking the showtimes blocks new holds on them (the bookings foreign key needs a share lock) meanwhile.
      const shows = await tx
        .select({ id: showtimes.id })
        .from(showtimes)
        .where(eq(showtimes.movieId, id))
        .for('update');
      showtimeIds = shows.map((s) => s.id);
      await assertNoTicketsAtStake(tx, showtimeIds, 'movie');
      await deleteReleasableBookings(tx, showtimeIds);
      await tx.delete(showtimes).where(eq(showtimes.movieId, id));
      await tx.delete(movies).where(eq(movies.id, id));
      if (movie.posterId) await tx.delete(posters).where(eq(posters.id, movie.posterId));
    });
  } catch (err) {
    if (pgErrorCode(err) === PG_FOREIGN_KEY_VIOLATION) {
      throw conflict('This movie has sold tickets and cannot be deleted', 'has_sold_tickets');
    }
    throw err;
  }
  // Its showtimes went with it.
  for (const showtimeId of showtimeIds) events.publish('seatMapStale', { showtimeId });
}

export interface StoredPoster {
  contentType: string;
  data: Buffer;
  etag: string;
}

/** A stored poster image, or 404. */
export async function getPoster(db: Queryable, id: string): Promise<StoredPoster> {
  const [row] = await db
    .select({ contentType: posters.contentType, data: posters.data, etag: posters.etag })
    .from(posters)
    .where(eq(posters.id, id))
    .limit(1);
  if (!row) throw notFound('Poster not found');
  return row;
}
