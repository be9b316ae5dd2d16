import { useQuery } from '@tanstack/react-query';
import type { PriceCard } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/admin/price-cards: the cards a showtime may be given (the pricing page keeps them). */
export const useShowtimePriceCards = () =>
  useQuery({
    queryKey: ['admin', 'price-cards'],
    queryFn: ({ signal }) => api<PriceCard[]>('/admin/price-cards', { signal }),
  });
