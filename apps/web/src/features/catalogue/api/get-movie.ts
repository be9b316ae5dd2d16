import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Movie } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/movies/{id}: one movie. */
export const getMovie = (movieId: string, signal?: AbortSignal) =>
  api<Movie>(`/movies/${encodeURIComponent(movieId)}`, { signal });

export const movieQueryOptions = (movieId: string) =>
  queryOptions({ queryKey: ['movies', movieId], queryFn: ({ signal }) => getMovie(movieId, signal) });

export const useMovie = (movieId: string) => useQuery(movieQueryOptions(movieId));
