// Distributors and the terms each movie is hired on (DESIGN §7.4, decision 048). The rental they give is worked out
// by the film-hire report (reports/film-hire-report.ts).
import { asc, desc, eq } from 'drizzle-orm';
import type { Distributor, FilmHireTerms, FilmHireTermsBody, MovieFilmHire } from '@cinema/contract';
import { pgErrorCode, PG_UNIQUE_VIOLATION, type Db, type Queryable } from '../../db/database.ts';
import { distributors, filmHireTerms, movies, type FilmHireStepRow } from '../../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { recordAudit, type Actor } from '../audit/audit.service.ts';

/** At most this many distributors are listed (a cinema deals with tens). */
const MAX_DISTRIBUTORS = 500;
/** At most this many movies are listed with their terms, newest first. */
const MAX_MOVIES = 500;

/** Percent to the hundredth as basis points, and back. */
export const toBasisPoints = (percent: number) => Math.round(percent * 100);
export const toPercent = (bp: number) => bp / 100;

/** `GET /api/admin/distributors`: by name. */
export async function listDistributors(db: Queryable): Promise<Distributor[]> {
  return db
    .select({ id: distributors.id, name: distributors.name })
    .from(distributors)
    .orderBy(asc(distributors.name))
    .limit(MAX_DISTRIBUTORS);
}

/** `POST` / `PUT /api/admin/distributors`: add or rename a distributor, audited; names are unique in any case. */
export async function saveDistributor(
  db: Db,
  actor: Actor,
  id: string | null,
  body: { name: string },
): Promise<Distributor> {
  try {
    return await db.transaction(async (tx) => {
      const [before] = id
        ? await tx
            .select({ id: distributors.id, name: distributors.name })
            .from(distributors)
            .where(eq(distributors.id, id))
        : [];
      if (id && !before) throw notFound('Distributor not found');
      const [row] = id
        ? await tx
            .update(distributors)
            .set({ name: body.name })
            .where(eq(distributors.id, id))
            .returning({ id: distributors.id, name: distributors.name })
        : await tx
            .insert(distributors)
            .values({ name: body.name })
            .returning({ id: distributors.id, name: distributors.name });
      await recordAudit(tx, actor, {
        action: id ? 'distributor.rename' : 'distributor.create',
        subjectType: 'distributor',
        subjectId: row!.id,
        before: before ?? null,
        after: row,
      });
      return row!;
    });
  } catch (err) {
    if (pgErrorCode(err) === PG_UNIQUE_VIOLATION)
      throw conflict(`A distributor "${body.name}" already exists`);
    throw err;
  }
}

interface TermsRow {
  movieId: string;
  distributorId: string;
  distributorName: string;
  percentBp: number;
  guaranteeCents: number | null;
  scale: FilmHireStepRow[];
}

/** A movie's terms as read with its distributor's name (`distributors` joined). */
export const termsColumns = {
  movieId: filmHireTerms.movieId,
  distributorId: filmHireTerms.distributorId,
  distributorName: distributors.name,
  percentBp: filmHireTerms.percentBp,
  guaranteeCents: filmHireTerms.guaranteeCents,
  scale: filmHireTerms.scale,
};

export const presentTerms = (row: TermsRow): FilmHireTerms => ({
  movieId: row.movieId,
  distributorId: row.distributorId,
  distributorName: row.distributorName,
  percent: toPercent(row.percentBp),
  guaranteeCents: row.guaranteeCents,
  scale: row.scale.map((s) => ({ fromWeek: s.fromWeek, percent: toPercent(s.percentBp) })),
});

/** `GET /api/admin/film-hire/terms`: every movie, newest first, with its terms or null. */
export async function listMovieTerms(db: Queryable): Promise<MovieFilmHire[]> {
  const rows = await db
    .select({ title: movies.title, id: movies.id, terms: termsColumns })
    .from(movies)
    .leftJoin(filmHireTerms, eq(filmHireTerms.movieId, movies.id))
    .leftJoin(distributors, eq(distributors.id, filmHireTerms.distributorId))
    .orderBy(desc(movies.createdAt), asc(movies.title))
    .limit(MAX_MOVIES);
  return rows.map((r) => ({
    movieId: r.id,
    title: r.title,
    terms: r.terms.movieId === null ? null : presentTerms(r.terms as TermsRow),
  }));
}

/** `PUT /api/admin/movies/{id}/film-hire`: a movie's distributor and terms, replaced whole and audited. */
export async function setFilmHireTerms(
  db: Db,
  actor: Actor,
  movieId: string,
  body: FilmHireTermsBody,
): Promise<FilmHireTerms> {
  return db.transaction(async (tx) => {
    const [movie] = await tx.select({ id: movies.id }).from(movies).where(eq(movies.id, movieId));
    if (!movie) throw notFound('Movie not found');
    const [distributor] = await tx
      .select({ name: distributors.name })
      .from(distributors)
      .where(eq(distributors.id, body.distributorId));
    if (!distributor) throw badRequest('No such distributor');
    const before = await termsOf(tx, movieId);
    const values = {
      distributorId: body.distributorId,
      percentBp: toBasisPoints(body.percent),
      guaranteeCents: body.guaranteeCents ?? null,
      scale: [...(body.scale ?? [])]
        .sort((a, b) => a.fromWeek - b.fromWeek)
        .map((s) => ({ fromWeek: s.fromWeek, percentBp: toBasisPoints(s.percent) })),
      updatedAt: new Date(),
    };
    await tx
      .insert(filmHireTerms)
      .values({ movieId, ...values })
      .onConflictDoUpdate({ target: filmHireTerms.movieId, set: values });
    const after = presentTerms({ movieId, distributorName: distributor.name, ...values });
    await recordAudit(tx, actor, {
      action: 'movie.film_hire',
      subjectType: 'movie',
      subjectId: movieId,
      before,
      after,
    });
    return after;
  });
}

/** `DELETE /api/admin/movies/{id}/film-hire`: the movie is hired on no terms any more (audited). */
export async function removeFilmHireTerms(db: Db, actor: Actor, movieId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await termsOf(tx, movieId);
    if (!before) throw notFound('This movie has no film-hire terms');
    await tx.delete(filmHireTerms).where(eq(filmHireTerms.movieId, movieId));
    await recordAudit(tx, actor, {
      action: 'movie.film_hire_remove',
      subjectType: 'movie',
      subjectId: movieId,
      before,
    });
  });
}

/** A movie's terms, or null. */
export async function termsOf(db: Queryable, movieId: string): Promise<FilmHireTerms | null> {
  const [row] = await db
    .select(termsColumns)
    .from(filmHireTerms)
    .innerJoin(distributors, eq(distributors.id, filmHireTerms.distributorId))
    .where(eq(filmHireTerms.movieId, movieId));
  return row ? presentTerms(row) : null;
}
