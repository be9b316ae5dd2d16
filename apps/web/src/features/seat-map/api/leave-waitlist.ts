import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { myWaitlistQueryKey } from './get-my-waitlist';
import { seatMapQueryKey } from './get-seat-map';

/** DELETE /api/showtimes/{id}/waitlist: leaves the line; seats offered are declined and pass to the next in line. */
export const leaveWaitlist = (showtimeId: string) =>
  api<{ ok: true; left: boolean }>(`/showtimes/${encodeURIComponent(showtimeId)}/waitlist`, {
    method: 'DELETE',
  });

export function useLeaveWaitlist(showtimeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => leaveWaitlist(showtimeId),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: myWaitlistQueryKey });
      void queryClient.invalidateQueries({ queryKey: seatMapQueryKey(showtimeId) });
    },
  });
}
