import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  BatchProblem,
  BatchShowtime,
  BatchShowtimesBody,
  BatchShowtimesResponse,
} from '@cinema/contract';
import { api, ApiError } from '../../../lib/api-client';

/**
 * POST /api/admin/showtimes/batch: with `dryRun`, what would be created and every problem; without, all of it or
 * nothing (409 batch_clashes with the plan).
 */
export const batchShowtimes = (body: BatchShowtimesBody) =>
  api<BatchShowtimesResponse>('/admin/showtimes/batch', { method: 'POST', body: { ...body } });

export function useBatchShowtimes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: batchShowtimes,
    onSuccess: (result) =>
      result.created
        ? Promise.all([
            queryClient.invalidateQueries({ queryKey: ['admin', 'showtimes'] }),
            queryClient.invalidateQueries({ queryKey: ['movies'] }),
          ])
        : undefined,
  });
}

/** The plan a refused batch (409 batch_clashes) came back with, to show what is in the way. */
export function refusedPlan(err: unknown): { showtimes: BatchShowtime[]; problems: BatchProblem[] } | null {
  if (!(err instanceof ApiError) || err.code !== 'batch_clashes') return null;
  const body = err.body as { showtimes?: unknown; problems?: unknown } | undefined;
  return Array.isArray(body?.showtimes) && Array.isArray(body?.problems)
    ? { showtimes: body.showtimes as BatchShowtime[], problems: body.problems as BatchProblem[] }
    : null;
}
