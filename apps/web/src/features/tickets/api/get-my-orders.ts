import { useQuery } from '@tanstack/react-query';
import type { Order } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/me/orders: the customer's latest orders (20), newest first, with totals and refunds. */
export const useMyOrders = () =>
  useQuery({
    queryKey: ['orders', 'mine'],
    queryFn: ({ signal }) =>
      api<{ orders: Order[]; nextPage: number | null }>('/me/orders', { signal }).then((r) => r.orders),
    refetchOnMount: 'always',
  });
