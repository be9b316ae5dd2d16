import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { AuditResponse } from '@cinema/contract';
import { api } from '../../../lib/api-client';

export interface AuditFilter {
  /** One action (`showtime.delete`) or a kind of thing (`showtime`). */
  action?: string;
  /** A staff member's email. */
  actor?: string;
}

/** GET /api/admin/audit: 50 entries, newest first, older than the entry `before` when given. */
export function getAudit(filter: AuditFilter, before: string | undefined, signal?: AbortSignal) {
  const params = new URLSearchParams();
  if (filter.action) params.set('action', filter.action);
  if (filter.actor) params.set('actor', filter.actor);
  if (before) params.set('before', before);
  const query = params.size > 0 ? `?${params}` : '';
  return api<AuditResponse>(`/admin/audit${query}`, { signal });
}

/** The log page by page: each "older" page starts after the last entry shown. */
export const auditQueryOptions = (filter: AuditFilter) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'audit', filter],
    queryFn: ({ signal, pageParam }) => getAudit(filter, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    staleTime: 0,
  });

export const useAudit = (filter: AuditFilter) => useInfiniteQuery(auditQueryOptions(filter));
