import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatePromoCodeBody, PromoCode } from '@cinema/contract';
import { api } from '../../../lib/api-client';

export const promoCodesQueryKey = ['admin', 'promo-codes'] as const;

/** GET /api/admin/promo-codes: newest first, each with its uses so far. */
export const usePromoCodes = () =>
  useQuery({
    queryKey: promoCodesQueryKey,
    queryFn: ({ signal }) => api<PromoCode[]>('/admin/promo-codes', { signal }),
  });

/** POST /api/admin/promo-codes: 409 when the code exists, 404 when its movie or showtime does not. */
export function useCreatePromoCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePromoCodeBody) =>
      api<PromoCode>('/admin/promo-codes', { method: 'POST', body: { ...body } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: promoCodesQueryKey }),
  });
}

/** DELETE /api/admin/promo-codes/{id}: deleted when never used, else deactivated (its uses stay on record). */
export function useEndPromoCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ ok: true }>(`/admin/promo-codes/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: promoCodesQueryKey }),
  });
}
