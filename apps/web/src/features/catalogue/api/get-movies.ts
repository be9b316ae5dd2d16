import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Movie } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/movies?genre=: every movie (of one genre when given), by title. */
export const getMovies = (genre = '', signal?: AbortSignal) =>
  api<Movie[]>(genre ? `/movies?genre=${encodeURIComponent(genre)}` : '/movies', { signal });

export const moviesQueryOptions = (genre = '') =>
  queryOptions({
    queryKey: genre ? ['movies', { genre }] : ['movies'],
    queryFn: ({ signal }) => getMovies(genre, signal),
  });

export const useMovies = (genre = '') => useQuery(moviesQueryOptions(genre));
