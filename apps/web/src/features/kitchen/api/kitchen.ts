import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConcessionStatusBody, Kitchen, KitchenOrder } from '@cinema/contract';
import { api } from '../../../lib/api-client';

export const kitchenQueryKey = ['admin', 'kitchen'] as const;

/**
 * GET /api/admin/kitchen: the orders to prepare, ready and lately handed over. Read again on every kitchen_update;
 * every 30 s as well, in case an update was lost while the socket reconnected.
 */
export const useKitchen = () =>
  useQuery({
    queryKey: kitchenQueryKey,
    queryFn: ({ signal }) => api<Kitchen>('/admin/kitchen', { signal }),
    refetchInterval: 30_000,
  });

/** POST /api/admin/concession-orders/{ref}/status: ready, or handed over (collected or delivered). */
export function useSetConcessionStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ref, status }: { ref: string } & ConcessionStatusBody) =>
      api<KitchenOrder>(`/admin/concession-orders/${encodeURIComponent(ref)}/status`, {
        method: 'POST',
        body: { status },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: kitchenQueryKey }),
  });
}
