import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ManagedShowtime } from '@cinema/contract';
import { apiWithHeaders } from '../../../lib/api-client';

export interface ManagedShowtimesFilter {
  /** Starting at or after this instant … */
  from?: string;
  /** … and before this one. */
  to?: string;
  movieId?: string;
  auditoriumId?: string;
  /** A page of MANAGE_PAGE_SIZE; without it, every match. */
  page?: number;
}

/**
 * GET /api/admin/showtimes/manage: showtimes with their confirmed tickets and live holds, of a span, a movie or a
 * hall; `total` counts every match (X-Total-Count) when a page is asked for.
 */
export async function getManagedShowtimes(filter: ManagedShowtimesFilter = {}, signal?: AbortSignal) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value !== undefined) params.set(key, String(value));
  const query = params.size > 0 ? `?${params}` : '';
  const { data, headers } = await apiWithHeaders<ManagedShowtime[]>(`/admin/showtimes/manage${query}`, {
    signal,
  });
  return { showtimes: data, total: Number(headers.get('x-total-count') ?? data.length) };
}

export const managedShowtimesQueryOptions = (filter: ManagedShowtimesFilter = {}) =>
  queryOptions({
    queryKey: ['admin', 'showtimes', 'manage', filter],
    queryFn: ({ signal }) => getManagedShowtimes(filter, signal),
    staleTime: 0,
  });

export const useManagedShowtimes = (filter: ManagedShowtimesFilter = {}, enabled = true) =>
  useQuery({ ...managedShowtimesQueryOptions(filter), enabled });
