import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { seatMapQueryKey } from './get-seat-map';

/** DELETE /api/showtimes/bookings/cancel: frees the caller's own live holds among these bookings. */
export const cancelHolds = (bookingIds: string[]) =>
  api<{ ok: true; cancelled: number }>('/showtimes/bookings/cancel', {
    method: 'DELETE',
    body: { bookingIds },
  });

export function useCancelHolds(showtimeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelHolds,
    onSettled: () => queryClient.invalidateQueries({ queryKey: seatMapQueryKey(showtimeId) }),
  });
}
