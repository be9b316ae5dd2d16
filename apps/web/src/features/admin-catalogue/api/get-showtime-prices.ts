import type { ShowtimePrices } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/showtimes/{id}/prices: which price card prices a showtime (null: its own price), and at what. */
export const getShowtimePrices = (showtimeId: string) =>
  api<ShowtimePrices>(`/showtimes/${encodeURIComponent(showtimeId)}/prices`);
