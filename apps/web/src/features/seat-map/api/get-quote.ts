import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CheckoutBody, Quote, ShowtimePrices } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/showtimes/{id}/prices: the ticket types sold for this showtime (and the default one). */
export const useShowtimePrices = (showtimeId: string) =>
  useQuery({
    queryKey: ['showtime-prices', showtimeId],
    queryFn: ({ signal }) =>
      api<ShowtimePrices>(`/showtimes/${encodeURIComponent(showtimeId)}/prices`, { signal }),
    staleTime: 60_000,
  });

/**
 * POST /api/pay/quote: exactly what checkout would charge for these holds with these ticket types and code (the
 * server prices everything). The last answer stays on screen while the next one comes.
 */
export const useQuote = (body: CheckoutBody) =>
  useQuery({
    queryKey: ['quote', body],
    queryFn: ({ signal }) => api<Quote>('/pay/quote', { method: 'POST', body: { ...body }, signal }),
    placeholderData: keepPreviousData,
    enabled: body.bookingIds.length > 0,
    staleTime: 0,
    retry: false,
  });
