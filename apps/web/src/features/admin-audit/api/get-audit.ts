import { queryOptions, useQuery } from '@tanstack/react-query';
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

/** One page of the log: the newest 50, or the 50 before the entry `before` (the previous page's `next`). */
export const auditQueryOptions = (filter: AuditFilter, before?: string) =>
  queryOptions({
    queryKey: ['admin', 'audit', filter, before ?? null],
    queryFn: ({ signal }) => getAudit(filter, before, signal),
    staleTime: 0,
  });

export const useAudit = (filter: AuditFilter, before?: string) => useQuery(auditQueryOptions(filter, before));
