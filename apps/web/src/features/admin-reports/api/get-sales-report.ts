import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SalesReport } from '@cinema/contract';
import { api, ApiError } from '../../../lib/api-client';
import { i18n } from '../../../lib/i18n';
import { getToken } from '../../../lib/session';

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
export async function downloadSalesCsv(span: ReportSpan): Promise<void> {
  const headers: Record<string, string> = { accept: 'text/csv' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`/api/admin/reports/sales?${search(span)}`, { headers });
  if (!res.ok) throw new ApiError(i18n.t('common:errors.requestFailed', { status: res.status }), res.status);
  const name =
    /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ??
    `sales-${span.from}-to-${span.to}-by-${span.groupBy}.csv`;
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
