import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Schedule } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/schedule?date=: one day's showtimes with availability, the movies they show and the days on offer. */
export const getSchedule = (date: string | undefined, signal?: AbortSignal) =>
  api<Schedule>(`/schedule${date ? `?date=${encodeURIComponent(date)}` : ''}`, { signal });

/** The schedule of a day (today when not given), fresh every minute while open; the last day stays while the next loads. */
export const useSchedule = (date: string | undefined) =>
  useQuery({
    queryKey: ['schedule', date ?? 'today'],
    queryFn: ({ signal }) => getSchedule(date, signal),
    refetchInterval: 60_000,
    placeholderData: keepPreviousData,
  });
