import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Movie } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/admin/movies: every movie, newest first. */
export const getAdminMovies = (signal?: AbortSignal) => api<Movie[]>('/admin/movies', { signal });

export const adminMoviesQueryOptions = () =>
  queryOptions({ queryKey: ['admin', 'movies'], queryFn: ({ signal }) => getAdminMovies(signal) });

export const useAdminMovies = () => useQuery(adminMoviesQueryOptions());
