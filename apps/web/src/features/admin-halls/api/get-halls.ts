import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Hall } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/admin/halls: every hall with its grid and seat count. */
export const getHalls = (signal?: AbortSignal) => api<Hall[]>('/admin/halls', { signal });

export const hallsQueryKey = ['admin', 'halls'] as const;

export const useHalls = () =>
  useQuery(queryOptions({ queryKey: hallsQueryKey, queryFn: ({ signal }) => getHalls(signal) }));
