import { useQuery } from '@tanstack/react-query';
import type { Order } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/me/orders/{ref}: one of the customer's orders with its lines, discount, total and refunds. */
export const useOrder = (ref: string | undefined, status: string | undefined) =>
  useQuery({
    // Read again when the payment's status changes (pending → paid turns its lines into tickets).
    queryKey: ['orders', ref, status],
    queryFn: ({ signal }) => api<Order>(`/me/orders/${encodeURIComponent(ref!)}`, { signal }),
    enabled: Boolean(ref),
  });
