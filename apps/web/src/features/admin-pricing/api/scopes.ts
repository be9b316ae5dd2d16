import { useQuery } from '@tanstack/react-query';
import type { AdminShowtime, Movie } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/admin/movies: the movies a promo code may be limited to. */
export const useScopeMovies = () =>
  useQuery({
    queryKey: ['admin', 'movies'],
    queryFn: ({ signal }) => api<Movie[]>('/admin/movies', { signal }),
  });

/** GET /api/admin/showtimes?movieId=: that movie's showtimes, for a code limited to one of them. */
export const useScopeShowtimes = (movieId: string) =>
  useQuery({
    queryKey: ['admin', 'showtimes', 'list', movieId],
    queryFn: ({ signal }) =>
      api<AdminShowtime[]>(`/admin/showtimes?movieId=${encodeURIComponent(movieId)}`, { signal }),
    enabled: movieId !== '',
  });
