import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WaitlistCounts } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/admin/waitlist: customers waiting and open offers per upcoming showtime that has any. */
export const getWaitlistCounts = (signal?: AbortSignal) => api<WaitlistCounts>('/admin/waitlist', { signal });

export const waitlistCountsQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'waitlist', 'counts'],
    queryFn: ({ signal }) => getWaitlistCounts(signal),
  });

export const useWaitlistCounts = () => useQuery(waitlistCountsQueryOptions());
