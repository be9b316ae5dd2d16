import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HallLayoutResponse } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { hallsQueryKey } from './get-halls';

/** GET /api/admin/halls/{id}/layout: the hall's rows of seats and gaps, as the editor reads them. */
export const getHallLayout = (id: string, signal?: AbortSignal) =>
  api<HallLayoutResponse>(`/admin/halls/${encodeURIComponent(id)}/layout`, { signal });

export const hallLayoutQueryKey = (id: string) => [...hallsQueryKey, id, 'layout'] as const;

export const useHallLayout = (id: string) =>
  useQuery(
    queryOptions({
      queryKey: hallLayoutQueryKey(id),
      queryFn: ({ signal }) => getHallLayout(id, signal),
      // The editor starts from one read: a refetch must not pull the layout from under an edit.
      staleTime: Infinity,
      refetchOnWindowFocus: false,
    }),
  );
