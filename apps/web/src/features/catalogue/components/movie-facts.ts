import type { Movie } from '@cinema/contract';
import { i18n } from '../../../lib/i18n';

/** "PG-13 · 118 min": the rating ('NR' when unrated) and the length ('?' when unknown). */
export const movieFacts = (movie: Pick<Movie, 'rating' | 'durationMinutes'>) =>
  i18n.t('common:movies.facts', {
    rating: movie.rating || i18n.t('common:movies.unrated'),
    minutes: movie.durationMinutes ?? '?',
  });
