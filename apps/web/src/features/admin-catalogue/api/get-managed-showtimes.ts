import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ManagedShowtime } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/admin/showtimes/manage: every showtime with its confirmed tickets and live holds. */
export const getManagedShowtimes = (signal?: AbortSignal) =>
  api<ManagedShowtime[]>('/admin/showtimes/manage', { signal });

export const managedShowtimesQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'showtimes', 'manage'],
    queryFn: ({ signal }) => getManagedShowtimes(signal),
    staleTime: 0,
  });

export const useManagedShowtimes = () => useQuery(managedShowtimesQueryOptions());
