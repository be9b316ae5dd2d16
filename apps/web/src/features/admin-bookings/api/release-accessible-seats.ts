import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccessibleRelease } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { seatMapQueryKey } from '../../seat-map/api/get-seat-map';

/** POST /api/admin/showtimes/{id}/accessible-release: its wheelchair spaces and companion seats on sale to everyone now. */
export const releaseAccessibleSeats = (showtimeId: string) =>
  api<AccessibleRelease>(`/admin/showtimes/${encodeURIComponent(showtimeId)}/accessible-release`, {
    method: 'POST',
  });

export function useReleaseAccessibleSeats(showtimeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => releaseAccessibleSeats(showtimeId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: seatMapQueryKey(showtimeId) }),
  });
}
