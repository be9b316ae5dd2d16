import { useQuery } from '@tanstack/react-query';
import type { GuestOrder } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/guest-order?token=…: a counter sale's order and tickets by the token its emailed link carries. */
export const getGuestOrder = (token: string, signal?: AbortSignal) =>
  api<GuestOrder>(`/guest-order?token=${encodeURIComponent(token)}`, { signal });

export const useGuestOrder = (token: string) =>
  useQuery({
    queryKey: ['guest-order', token],
    queryFn: ({ signal }) => getGuestOrder(token, signal),
    enabled: token !== '',
    retry: false,
  });

/** The PDF of a guest order's tickets: a plain link, the token is the key. */
export const guestTicketsPdfUrl = (token: string) =>
  `/api/guest-order/tickets.pdf?token=${encodeURIComponent(token)}`;
