import { useMutation } from '@tanstack/react-query';
import type { BestAvailableBody, BestAvailableResponse } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/**
 * POST /api/showtimes/{id}/best-available: the best `count` seats together (the customer then holds them as usual);
 * 409 no_seats_together when there are not that many left side by side.
 */
export const findBestSeats = (showtimeId: string, body: BestAvailableBody) =>
  api<BestAvailableResponse>(`/showtimes/${encodeURIComponent(showtimeId)}/best-available`, {
    method: 'POST',
    body: { ...body },
  });

export const useFindBestSeats = (showtimeId: string) =>
  useMutation({ mutationFn: (body: BestAvailableBody) => findBestSeats(showtimeId, body) });
