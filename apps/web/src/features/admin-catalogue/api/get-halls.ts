import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Hall } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/admin/rooms: the halls. */
export const getHalls = (signal?: AbortSignal) => api<Hall[]>('/admin/rooms', { signal });

export const hallsQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'rooms'],
    queryFn: ({ signal }) => getHalls(signal),
    staleTime: 5 * 60_000,
  });

export const useHalls = () => useQuery(hallsQueryOptions());
