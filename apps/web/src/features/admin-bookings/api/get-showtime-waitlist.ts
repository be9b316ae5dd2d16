import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StaffWaitlist } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/admin/showtimes/{id}/waitlist: the showtime's waiting list in join order and the offers made. */
export const getShowtimeWaitlist = (showtimeId: string, signal?: AbortSignal) =>
  api<StaffWaitlist>(`/admin/showtimes/${encodeURIComponent(showtimeId)}/waitlist`, { signal });

export const showtimeWaitlistQueryOptions = (showtimeId: string) =>
  queryOptions({
    queryKey: ['admin', 'showtimes', showtimeId, 'waitlist'],
    queryFn: ({ signal }) => getShowtimeWaitlist(showtimeId, signal),
  });

export const useShowtimeWaitlist = (showtimeId: string) => useQuery(showtimeWaitlistQueryOptions(showtimeId));
