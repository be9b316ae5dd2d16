import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { OutboxResponse } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/admin/outbox: the emails the cinema wrote, newest first, 50 a page. */
export const getOutbox = (page: number, signal?: AbortSignal) =>
  api<OutboxResponse>(`/admin/outbox?page=${page}`, { signal });

export const outboxQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ['admin', 'outbox', page],
    queryFn: ({ signal }) => getOutbox(page, signal),
    placeholderData: keepPreviousData,
  });

export const useOutbox = (page: number) => useQuery(outboxQueryOptions(page));
