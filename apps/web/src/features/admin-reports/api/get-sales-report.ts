import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SalesReport } from '@cinema/contract';
import { api, downloadFile } from '../../../lib/api-client';

export interface ReportSpan {
  from: string;
  to: string;
  groupBy: 'day' | 'movie' | 'showtime';
}

const search = (span: ReportSpan) =>
  new URLSearchParams({ from: span.from, to: span.to, groupBy: span.groupBy }).toString();

/** GET /api/admin/reports/sales: the figures of a span, grouped by day, movie or showtime. */
export const getSalesReport = (span: ReportSpan, signal?: AbortSignal) =>
  api<SalesReport>(`/admin/reports/sales?${search(span)}`, { signal });

export const salesReportQueryOptions = (span: ReportSpan) =>
  queryOptions({
    queryKey: ['admin', 'reports', 'sales', span],
    queryFn: ({ signal }) => getSalesReport(span, signal),
    placeholderData: keepPreviousData,
  });

export const useSalesReport = (span: ReportSpan) => useQuery(salesReportQueryOptions(span));

/** The same report as a CSV file (Accept: text/csv), saved by the browser under the server's file name. */
export const downloadSalesCsv = (span: ReportSpan): Promise<void> =>
  downloadFile(
    `/admin/reports/sales?${search(span)}`,
    `sales-${span.from}-to-${span.to}-by-${span.groupBy}.csv`,
    'text/csv',
  );
