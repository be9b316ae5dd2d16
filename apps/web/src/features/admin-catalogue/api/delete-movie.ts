import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Ok } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** DELETE /api/admin/movies/{id}: refused (409) when the movie sold tickets. */
export const deleteMovie = (movieId: string) =>
  api<Ok>(`/admin/movies/${encodeURIComponent(movieId)}`, { method: 'DELETE' });

export function useDeleteMovie() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMovie,
    // Its showtimes went with it.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['admin'] }),
        queryClient.invalidateQueries({ queryKey: ['movies'] }),
      ]),
  });
}
