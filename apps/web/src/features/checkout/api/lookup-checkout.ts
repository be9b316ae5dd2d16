import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LookupResponse } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** How often and how long the success page asks again while the payment is still pending. */
export const PENDING_POLL_MS = 1500;
export const PENDING_POLL_TRIES = 20;

/** GET /api/pay/lookup: the outcome and tickets of a checkout session (fulfilled on the spot if paid). */
export const lookupCheckout = (sessionId: string, signal?: AbortSignal) =>
  api<LookupResponse>(`/pay/lookup?session_id=${encodeURIComponent(sessionId)}`, { signal });

export const checkoutLookupQueryOptions = (sessionId: string) =>
  queryOptions({
    queryKey: ['checkout', 'lookup', sessionId],
    queryFn: ({ signal }) => lookupCheckout(sessionId, signal),
    staleTime: 0,
  });

/**
 * The lookup, asked again every 1.5 s for about 30 s while the provider has not confirmed the payment;
 * `stoppedWaiting` tells when it has given up asking.
 */
export function useCheckoutLookup(sessionId: string | null) {
  const options = checkoutLookupQueryOptions(sessionId ?? '');
  const query = useQuery({
    ...options,
    enabled: Boolean(sessionId),
    refetchInterval: (q) =>
      q.state.data?.status === 'pending' && q.state.dataUpdateCount < PENDING_POLL_TRIES
        ? PENDING_POLL_MS
        : false,
  });
  const answers = useQueryClient().getQueryState(options.queryKey)?.dataUpdateCount ?? 0;
  return { query, stoppedWaiting: query.data?.status === 'pending' && answers >= PENDING_POLL_TRIES };
}
