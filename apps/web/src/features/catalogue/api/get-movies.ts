import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Movie } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/movies: every movie, by title. */
export const getMovies = (signal?: AbortSignal) => api<Movie[]>('/movies', { signal });

export const moviesQueryOptions = () =>
  queryOptions({ queryKey: ['movies'], queryFn: ({ signal }) => getMovies(signal) });

export const useMovies = () => useQuery(moviesQueryOptions());
