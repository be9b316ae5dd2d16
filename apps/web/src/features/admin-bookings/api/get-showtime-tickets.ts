import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShowtimeTicket } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/admin/showtimes/{id}/tickets: the tickets of a showtime, for printing their QR codes. */
export const getShowtimeTickets = (showtimeId: string, signal?: AbortSignal) =>
  api<ShowtimeTicket[]>(`/admin/showtimes/${encodeURIComponent(showtimeId)}/tickets`, { signal });

export const showtimeTicketsQueryOptions = (showtimeId: string) =>
  queryOptions({
    queryKey: ['admin', 'showtimes', showtimeId, 'tickets'],
    queryFn: ({ signal }) => getShowtimeTickets(showtimeId, signal),
  });

export const useShowtimeTickets = (showtimeId: string) => useQuery(showtimeTicketsQueryOptions(showtimeId));
