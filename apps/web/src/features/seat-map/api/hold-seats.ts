import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { HoldResponse } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { seatMapQueryKey } from './get-seat-map';

/** POST /api/showtimes/{id}/hold: all or nothing; a 409 names the seats someone else has. */
export const holdSeats = (showtimeId: string, seatIds: string[]) =>
  api<HoldResponse>(`/showtimes/${encodeURIComponent(showtimeId)}/hold`, {
    method: 'POST',
    body: { seatIds },
  });

/** Holds the selected seats and refreshes the map whatever the outcome. */
export function useHoldSeats(showtimeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (seatIds: string[]) => holdSeats(showtimeId, seatIds),
    onSettled: () => queryClient.invalidateQueries({ queryKey: seatMapQueryKey(showtimeId) }),
  });
}
