import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SeatMap } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/showtimes/{id}/seats: every seat with its status; the caller's own holds carry heldByMe. */
export const getSeatMap = (showtimeId: string, signal?: AbortSignal) =>
  api<SeatMap>(`/showtimes/${encodeURIComponent(showtimeId)}/seats`, { signal });

export const seatMapQueryKey = (showtimeId: string) => ['seat-map', showtimeId] as const;

export const seatMapQueryOptions = (showtimeId: string) =>
  queryOptions({
    queryKey: seatMapQueryKey(showtimeId),
    queryFn: ({ signal }) => getSeatMap(showtimeId, signal),
    // Live updates keep it fresh; a refetch on focus catches anything missed while the tab slept.
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

export const useSeatMap = (showtimeId: string) => useQuery(seatMapQueryOptions(showtimeId));
