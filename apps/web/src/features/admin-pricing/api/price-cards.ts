import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatePriceCardBody, PriceCard } from '@cinema/contract';
import { api } from '../../../lib/api-client';

export const priceCardsQueryKey = ['admin', 'price-cards'] as const;

/** GET /api/admin/price-cards: every card with its prices, by name. */
export const usePriceCards = () =>
  useQuery({
    queryKey: priceCardsQueryKey,
    queryFn: ({ signal }) => api<PriceCard[]>('/admin/price-cards', { signal }),
  });

/** POST /api/admin/price-cards (new) or PUT …/{id} (the whole card replaced); 409 when the name is taken. */
export function useSavePriceCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: CreatePriceCardBody }) =>
      id
        ? api<PriceCard>(`/admin/price-cards/${encodeURIComponent(id)}`, { method: 'PUT', body: { ...body } })
        : api<PriceCard>('/admin/price-cards', { method: 'POST', body: { ...body } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: priceCardsQueryKey }),
  });
}

/** DELETE /api/admin/price-cards/{id}: 409 in_use while a showtime has chosen the card. */
export function useDeletePriceCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ ok: true }>(`/admin/price-cards/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: priceCardsQueryKey }),
  });
}
