import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BookedSeat } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/admin/showtimes/{id}/booked: the paid seats of a showtime with their buyers. */
export const getBookedSeats = (showtimeId: string, signal?: AbortSignal) =>
  api<BookedSeat[]>(`/admin/showtimes/${encodeURIComponent(showtimeId)}/booked`, { signal });

export const bookedSeatsQueryOptions = (showtimeId: string) =>
  queryOptions({
    queryKey: ['admin', 'showtimes', showtimeId, 'booked'],
    queryFn: ({ signal }) => getBookedSeats(showtimeId, signal),
  });

export const useBookedSeats = (showtimeId: string) => useQuery(bookedSeatsQueryOptions(showtimeId));
