import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WaitlistEntry } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { myWaitlistQueryKey } from './get-my-waitlist';
import { seatMapQueryKey } from './get-seat-map';

export interface JoinWaitlistBody {
  count: number;
  together: boolean;
  type?: 'WHEELCHAIR';
}

/** POST /api/showtimes/{id}/waitlist: in line for `count` seats; seats that fit now are offered at once. */
export const joinWaitlist = (showtimeId: string, body: JoinWaitlistBody) =>
  api<WaitlistEntry>(`/showtimes/${encodeURIComponent(showtimeId)}/waitlist`, {
    method: 'POST',
    body: { ...body },
  });

export function useJoinWaitlist(showtimeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: JoinWaitlistBody) => joinWaitlist(showtimeId, body),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: myWaitlistQueryKey });
      void queryClient.invalidateQueries({ queryKey: seatMapQueryKey(showtimeId) });
    },
  });
}
