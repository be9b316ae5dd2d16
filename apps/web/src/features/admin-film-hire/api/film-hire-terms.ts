import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FilmHireTerms, FilmHireTermsBody, MovieFilmHire } from '@cinema/contract';
import { api } from '../../../lib/api-client';

const termsKey = ['admin', 'film-hire', 'terms'] as const;

/** GET /api/admin/film-hire/terms: every movie, newest first, with its terms or null. */
export const useMovieTerms = () =>
  useQuery({
    queryKey: termsKey,
    queryFn: ({ signal }) => api<MovieFilmHire[]>('/admin/film-hire/terms', { signal }),
  });

/** PUT /api/admin/movies/{id}/film-hire: a movie's distributor and terms. */
export function useSaveTerms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ movieId, body }: { movieId: string; body: FilmHireTermsBody }) =>
      api<FilmHireTerms>(`/admin/movies/${encodeURIComponent(movieId)}/film-hire`, { method: 'PUT', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}

/** DELETE /api/admin/movies/{id}/film-hire. */
export function useRemoveTerms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (movieId: string) =>
      api(`/admin/movies/${encodeURIComponent(movieId)}/film-hire`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
