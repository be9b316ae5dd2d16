import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateShowtimeBody, Showtime } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** POST /api/admin/showtimes: 409 showtime_overlap (with the clashing showtime) when the hall is busy. */
export const createShowtime = (body: CreateShowtimeBody) =>
  api<Showtime>('/admin/showtimes', { method: 'POST', body: { ...body } });

export function useCreateShowtime() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createShowtime,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['admin', 'showtimes'] }),
        queryClient.invalidateQueries({ queryKey: ['movies'] }),
      ]),
  });
}
