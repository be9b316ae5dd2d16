import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { BoxOfficeReturns, FilmHireReport } from '@cinema/contract';
import { api, downloadFile } from '../../../lib/api-client';

const query = (week: string) => new URLSearchParams({ week }).toString();

/** GET /api/admin/reports/film-hire?week=: rental due per distributor and film for a film week. */
export const useFilmHireReport = (week: string | null) =>
  useQuery({
    queryKey: ['admin', 'reports', 'film-hire', week],
    queryFn: ({ signal }) => api<FilmHireReport>(`/admin/reports/film-hire?${query(week!)}`, { signal }),
    enabled: week !== null,
    placeholderData: keepPreviousData,
  });

/** GET /api/admin/reports/box-office?week=: admissions and gross per film, day and showtime. */
export const useBoxOfficeReturns = (week: string | null) =>
  useQuery({
    queryKey: ['admin', 'reports', 'box-office', week],
    queryFn: ({ signal }) => api<BoxOfficeReturns>(`/admin/reports/box-office?${query(week!)}`, { signal }),
    enabled: week !== null,
    placeholderData: keepPreviousData,
  });

/** Either report as a CSV file (Accept: text/csv), saved under the server's file name. */
export const downloadWeekCsv = (report: 'film-hire' | 'box-office', week: string): Promise<void> =>
  downloadFile(`/admin/reports/${report}?${query(week)}`, `${report}-${week}.csv`, 'text/csv');
