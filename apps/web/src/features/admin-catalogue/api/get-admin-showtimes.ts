import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminShowtime } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/admin/showtimes[?movieId=]: showtimes with their movie title and hall name, in start order. */
export const getAdminShowtimes = (movieId: string | undefined, signal?: AbortSignal) =>
  api<AdminShowtime[]>(`/admin/showtimes${movieId ? `?movieId=${encodeURIComponent(movieId)}` : ''}`, {
    signal,
  });

export const adminShowtimesQueryOptions = (movieId?: string) =>
  queryOptions({
    queryKey: ['admin', 'showtimes', 'list', movieId ?? 'all'],
    queryFn: ({ signal }) => getAdminShowtimes(movieId, signal),
  });

export const useAdminShowtimes = (movieId?: string) => useQuery(adminShowtimesQueryOptions(movieId));
