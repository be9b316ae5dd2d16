import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CounterSaleBody,
  ExchangeBody,
  ExchangeResponse,
  ManagedShowtime,
  RefundBody,
  RefundResponse,
  Showtime,
  ShowtimePrices,
  StaffOrder,
} from '@cinema/contract';
import { api } from '../../../lib/api-client';

const enc = encodeURIComponent;

/** GET /api/admin/orders: the newest orders, or those matching a reference or an email. */
export const staffOrdersQueryOptions = (q: string, page: number) =>
  queryOptions({
    queryKey: ['admin', 'orders', q, page],
    queryFn: ({ signal }) =>
      api<{ orders: StaffOrder[]; nextPage: number | null }>(`/admin/orders?q=${enc(q)}&page=${page}`, {
        signal,
      }),
    staleTime: 0,
  });
export const useStaffOrders = (q: string, page: number) => useQuery(staffOrdersQueryOptions(q, page));

export const staffOrderQueryKey = (ref: string) => ['admin', 'order', ref.toUpperCase()] as const;
export const useStaffOrder = (ref: string) =>
  useQuery({
    queryKey: staffOrderQueryKey(ref),
    queryFn: ({ signal }) => api<StaffOrder>(`/admin/orders/${enc(ref)}`, { signal }),
    staleTime: 0,
  });

/** After a refund or a move: the order as it is now, and every list and seat map that showed it. */
function useSettle() {
  const client = useQueryClient();
  return (order: StaffOrder) => {
    client.setQueryData(staffOrderQueryKey(order.ref), order);
    void client.invalidateQueries({ queryKey: ['admin', 'orders'] });
    void client.invalidateQueries({ queryKey: ['seat-map'] });
  };
}

export function useRefund(ref: string) {
  const settle = useSettle();
  return useMutation({
    mutationFn: (body: RefundBody) =>
      api<RefundResponse>(`/admin/orders/${enc(ref)}/refund`, { method: 'POST', body }),
    onSuccess: (res) => settle(res.order),
  });
}

export function useExchange(ref: string) {
  const settle = useSettle();
  return useMutation({
    mutationFn: (body: ExchangeBody) =>
      api<ExchangeResponse>(`/admin/orders/${enc(ref)}/exchange`, { method: 'POST', body }),
    onSuccess: (res) => settle(res.order),
  });
}

export function useCounterSale() {
  const settle = useSettle();
  return useMutation({
    mutationFn: (body: CounterSaleBody) =>
      api<StaffOrder>('/admin/box-office/sales', { method: 'POST', body }),
    onSuccess: settle,
  });
}

/** Showtimes the box office sells: from the start of today for a week, in start order. */
export function useSellableShowtimes() {
  return useQuery({
    queryKey: ['admin', 'box-office', 'showtimes'],
    queryFn: ({ signal }) => {
      const from = new Date();
      from.setHours(0, 0, 0, 0);
      const to = new Date(from.getTime() + 8 * 24 * 3600_000);
      return api<ManagedShowtime[]>(
        `/admin/showtimes/manage?from=${enc(from.toISOString())}&to=${enc(to.toISOString())}&page=1`,
        { signal },
      );
    },
    staleTime: 30_000,
  });
}

/** A movie's upcoming showtimes (to move a ticket to). */
export const useMovieShowtimes = (movieId: string | null) =>
  useQuery({
    queryKey: ['movie-showtimes', movieId],
    queryFn: ({ signal }) => api<Showtime[]>(`/movies/${enc(movieId!)}/showtimes`, { signal }),
    enabled: Boolean(movieId),
  });

/** What each ticket type costs on each seat type for a showtime. */
export const useShowtimePrices = (showtimeId: string) =>
  useQuery({
    queryKey: ['showtime-prices', showtimeId],
    queryFn: ({ signal }) => api<ShowtimePrices>(`/showtimes/${enc(showtimeId)}/prices`, { signal }),
    enabled: Boolean(showtimeId),
  });
