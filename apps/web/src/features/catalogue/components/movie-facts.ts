import type { Movie } from '@cinema/contract';

/** "PG-13 · 118 min": the rating ('NR' when unrated) and the length ('?' when unknown). */
export const movieFacts = (movie: Pick<Movie, 'rating' | 'durationMinutes'>) =>
  `${movie.rating || 'NR'} · ${movie.durationMinutes ?? '?'} min`;
