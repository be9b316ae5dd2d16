import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyWaitlistResponse } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/me/waitlist: the customer's waiting lists, each with the place in line and the latest offer. */
export const getMyWaitlist = (signal?: AbortSignal) => api<MyWaitlistResponse>('/me/waitlist', { signal });

export const myWaitlistQueryKey = ['my-waitlist'] as const;

export const myWaitlistQueryOptions = () =>
  queryOptions({
    queryKey: myWaitlistQueryKey,
    queryFn: ({ signal }) => getMyWaitlist(signal),
    // Seat changes ask for it again (an offer comes as seats held); this catches one made while the socket slept.
    refetchInterval: 30_000,
    refetchOnWindowFocus: true,
  });

export const useMyWaitlist = (enabled: boolean) => useQuery({ ...myWaitlistQueryOptions(), enabled });
