import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Showtime } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/movies/{id}/showtimes: the movie's upcoming showtimes, in start order. */
export const getMovieShowtimes = (movieId: string, signal?: AbortSignal) =>
  api<Showtime[]>(`/movies/${encodeURIComponent(movieId)}/showtimes`, { signal });

export const movieShowtimesQueryOptions = (movieId: string) =>
  queryOptions({
    queryKey: ['movies', movieId, 'showtimes'],
    queryFn: ({ signal }) => getMovieShowtimes(movieId, signal),
  });

export const useMovieShowtimes = (movieId: string) => useQuery(movieShowtimesQueryOptions(movieId));
