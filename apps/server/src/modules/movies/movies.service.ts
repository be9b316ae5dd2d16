import { asc, desc, eq, sql } from 'drizzle-orm';
import { certificateOf, minAgeOf, RATING_SYSTEMS, type Movie, type RatingSystem } from '@cinema/contract';
import { isStillReferenced, type Db, type Queryable } from '../../db/database.ts';
import type { Deps } from '../../deps.ts';
import { intArray, textArray } from '../../db/arrays.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';
import { movies, posterVariants, posters, showtimes } from '../../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { assertNoTicketsAtStake, deleteReleasableBookings } from '../showtimes/tickets-at-stake.ts';
import { insertPoster, posterSrcSet, preparePoster } from './posters.service.ts';

export interface NewMovie {
  title: string;
  description?: string;
  durationMinutes?: number;
  rating?: string;
  genres?: string[];
  cast?: string[];
  director?: string;
  releaseDate?: string;
  trailerUrl?: string;
}

/** How movies are shown: poster addresses on `posterBase` (CORS_ORIGINS), age rules of `ratingSystem`. */
export interface MovieView {
  posterBase?: string;
  ratingSystem?: RatingSystem;
}

// Spelled out with their tables: drizzle leaves columns unqualified in a one-table select, and inside these
// subqueries an unqualified `poster_id` or `id` would be the inner table's own column.
const moviePosterId = sql.raw('"movies"."poster_id"');

const movieColumns = {
  id: movies.id,
  title: movies.title,
  description: movies.description,
  durationMinutes: movies.durationMinutes,
  rating: movies.rating,
  genres: movies.genres,
  castMembers: movies.castMembers,
  director: movies.director,
  releaseDate: movies.releaseDate,
  trailerUrl: movies.trailerUrl,
  posterId: movies.posterId,
  posterWidth: sql<number | null>`(select p.width from ${posters} p where p.id = ${moviePosterId})`,
  posterVariantWidths: sql<number[] | null>`(select array_agg(v.width order by v.width)
    from ${posterVariants} v where v.poster_id = ${moviePosterId})`,
};

type MovieRow = {
  id: string;
  title: string;
  description: string | null;
  durationMinutes: number | null;
  rating: string | null;
  genres: string[] | string;
  castMembers: string[] | string;
  director: string | null;
  releaseDate: string | null;
  trailerUrl: string | null;
  posterId: string | null;
  posterWidth: number | null;
  posterVariantWidths: number[] | string | null;
};

/** Posters never change (a new upload gets a new id), so their URL can be cached forever. */
/** A poster's address: relative, or on `base` (PUBLIC_URL) when clients on other origins show it (CORS_ORIGINS). */
export const posterUrl = (posterId: string | null, base = '') =>
  posterId ? `${base}/api/posters/${posterId}` : null;

function presentMovie(row: MovieRow, { posterBase = '', ratingSystem = 'MPAA' }: MovieView): Movie {
  const url = posterUrl(row.posterId, posterBase);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    durationMinutes: row.durationMinutes,
    rating: row.rating,
    posterUrl: url,
    posterSrcSet: url ? posterSrcSet(url, row.posterWidth, intArray(row.posterVariantWidths)) : null,
    genres: textArray(row.genres),
    cast: textArray(row.castMembers),
    director: row.director,
    releaseDate: row.releaseDate,
    trailerUrl: row.trailerUrl,
    minAge: minAgeOf(ratingSystem, row.rating),
  };
}

/** Every movie (of one genre when given): by title for customers, newest first for staff. */
export async function listMovies(
  db: Queryable,
  order: 'title' | 'newest' = 'title',
  view: MovieView = {},
  genre?: string,
): Promise<Movie[]> {
  const rows = await db
    .select(movieColumns)
    .from(movies)
    .where(genre ? sql`${movies.genres} @> array[${genre}]::text[]` : undefined)
    .orderBy(
      ...(order === 'title'
        ? [asc(movies.title), asc(movies.id)]
        : [desc(movies.createdAt), asc(movies.title)]),
    );
  return rows.map((row) => presentMovie(row, view));
}

/** One movie, or 404. */
export async function getMovie(db: Queryable, id: string, view: MovieView = {}): Promise<Movie> {
  const [row] = await db.select(movieColumns).from(movies).where(eq(movies.id, id)).limit(1);
  if (!row) throw notFound('Movie not found');
  return presentMovie(row, view);
}

/**
 * A movie's rating as the certificate of the cinema's system it names ("fsk 18" → "FSK 18"); 400 naming the
 * system's certificates when it is none of them.
 */
export function certificateFor(ratingSystem: RatingSystem, rating: string): string {
  const certificate = certificateOf(ratingSystem, rating);
  if (certificate) return certificate.code;
  const certificates = RATING_SYSTEMS[ratingSystem].map((c) => c.code).join(', ');
  throw badRequest(`Rating must be one of the ${ratingSystem} certificates: ${certificates}`);
}

/**
 * Creates a movie (its rating a certificate of the cinema's system: 400 otherwise) and stores its poster (if any) in
 * the database, so every server process can serve it.
 */
export async function createMovie(
  db: Db,
  actor: Actor,
  fields: NewMovie,
  poster?: Buffer,
  view: MovieView = {},
): Promise<Movie> {
  const input = fields.rating
    ? { ...fields, rating: certificateFor(view.ratingSystem ?? 'MPAA', fields.rating) }
    : fields;
  // Decoded and re-encoded before the transaction: the database is not held meanwhile.
  const prepared = poster ? await preparePoster(poster) : null;
  const created = await db.transaction(async (tx) => {
    const posterId = prepared ? await insertPoster(tx, prepared) : null;
    const [movie] = await tx
      .insert(movies)
      .values({
        title: input.title,
        description: input.description || null,
        durationMinutes: input.durationMinutes ?? null,
        rating: input.rating || null,
        genres: input.genres ?? [],
        castMembers: input.cast ?? [],
        director: input.director || null,
        releaseDate: input.releaseDate ?? null,
        trailerUrl: input.trailerUrl ?? null,
        posterId,
      })
      .returning({ id: movies.id });
    await recordAudit(tx, actor, {
      action: 'movie.create',
      subjectType: 'movie',
      subjectId: movie!.id,
      after: input,
    });
    return movie!;
  });
  return getMovie(db, created.id, view);
}

/**
 * Deletes a movie with its showtimes, their unpaid holds and its poster; 409 has_sold_tickets (and nothing
 * deleted) when any of its showtimes sold a ticket or is being paid for.
 */
export async function deleteMovie(
  { db, events }: Pick<Deps, 'db' | 'events'>,
  actor: Actor,
  id: string,
): Promise<void> {
  let showtimeIds: string[] = [];
  try {
    await db.transaction(async (tx) => {
      const [movie] = await tx
        .select({ id: movies.id, title: movies.title, posterId: movies.posterId })
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
      await recordAudit(tx, actor, {
        action: 'movie.delete',
        subjectType: 'movie',
        subjectId: id,
        before: { title: movie.title, showtimes: showtimeIds.length },
      });
    });
  } catch (err) {
    if (isStillReferenced(err)) {
      throw conflict('This movie has sold tickets and cannot be deleted', 'has_sold_tickets');
    }
    throw err;
  }
  // Its showtimes went with it.
  for (const showtimeId of showtimeIds) events.publish('seatMapStale', { showtimeId });
}
