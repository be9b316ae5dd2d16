import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CounterQuote,
  CounterSaleBody,
  ExchangeBody,
  ExchangeResponse,
  DoorShowtimesResponse,
  SeatMap,
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

/**
 * POST /api/admin/box-office/quote: what the sale in the basket would charge, booking fees and tax included (priced by
 * the server as the sale is). Off while the basket is empty.
 */
export function useCounterQuote(body: CounterSaleBody, enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'box-office', 'quote', body],
    queryFn: ({ signal }) => api<CounterQuote>('/admin/box-office/quote', { method: 'POST', body, signal }),
    enabled,
    placeholderData: (previous) => previous,
  });
}

/** Showtimes the box office sells: those not over yet that start within a week (the door's list), in start order. */
export function useSellableShowtimes() {
  return useQuery({
    queryKey: ['admin', 'box-office', 'showtimes'],
    queryFn: async ({ signal }) =>
      (await api<DoorShowtimesResponse>('/admin/scan/showtimes', { signal })).showtimes,
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

/**
 * A showtime's seats as every seat map shows them (the customer's seat map reads the same, under the same key, so a
 * refund or a sale here refreshes both); read again every 15 seconds while the desk has it open.
 */
export const useShowtimeSeats = (showtimeId: string) =>
  useQuery({
    queryKey: ['seat-map', showtimeId],
    queryFn: ({ signal }) => api<SeatMap>(`/showtimes/${enc(showtimeId)}/seats`, { signal }),
    staleTime: 0,
    refetchInterval: 15_000,
  });
