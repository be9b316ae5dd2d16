import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Ok } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** DELETE /api/admin/showtimes/{id}: refused (409) when it sold tickets or one is being paid for. */
export const deleteShowtime = (showtimeId: string) =>
  api<Ok>(`/admin/showtimes/${encodeURIComponent(showtimeId)}`, { method: 'DELETE' });

export function useDeleteShowtime() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteShowtime,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['admin', 'showtimes'] }),
        queryClient.invalidateQueries({ queryKey: ['movies'] }),
      ]),
  });
}
