import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Schedule } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/**
 * GET /api/schedule?date=&attributes=&genre=: one day's showtimes with availability (only those having every
 * attribute given, of movies of the genre given), the movies they show and the days on offer.
 */
export const getSchedule = (
  date: string | undefined,
  attributes: readonly string[],
  genre = '',
  signal?: AbortSignal,
) => {
  const query = new URLSearchParams();
  if (date) query.set('date', date);
  if (attributes.length > 0) query.set('attributes', attributes.join(','));
  if (genre) query.set('genre', genre);
  const search = query.toString();
  return api<Schedule>(`/schedule${search ? `?${search}` : ''}`, { signal });
};

/** The schedule of a day (today when not given), fresh every minute while open; the last day stays while the next loads. */
export const useSchedule = (date: string | undefined, attributes: readonly string[] = [], genre = '') =>
  useQuery({
    queryKey: ['schedule', date ?? 'today', attributes.join(','), genre],
    queryFn: ({ signal }) => getSchedule(date, attributes, genre, signal),
    refetchInterval: 60_000,
    placeholderData: keepPreviousData,
  });
