import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Movie } from '@cinema/contract';
import { api } from '../../../lib/api-client';

export interface NewMovieForm {
  title: string;
  description: string;
  durationMinutes: string;
  rating: string;
  genres: string[];
  /** Names separated by commas. */
  cast: string;
  director: string;
  releaseDate: string;
  trailerUrl: string;
  poster: File | null;
}

/** POST /api/admin/movies (multipart): the created movie. */
export function createMovie(form: NewMovieForm) {
  const body = new FormData();
  body.append('title', form.title.trim());
  body.append('description', form.description.trim());
  body.append('durationMinutes', form.durationMinutes.trim());
  body.append('rating', form.rating.trim());
  body.append('genres', form.genres.join(','));
  body.append('cast', form.cast.trim());
  body.append('director', form.director.trim());
  body.append('releaseDate', form.releaseDate);
  body.append('trailerUrl', form.trailerUrl.trim());
  if (form.poster) body.append('poster', form.poster);
  return api<Movie>('/admin/movies', { method: 'POST', body });
}

export function useCreateMovie() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMovie,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['admin', 'movies'] }),
        queryClient.invalidateQueries({ queryKey: ['movies'] }),
      ]),
  });
}
