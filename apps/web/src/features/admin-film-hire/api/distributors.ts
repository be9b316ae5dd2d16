import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Distributor } from '@cinema/contract';
import { api } from '../../../lib/api-client';

const distributorsKey = ['admin', 'distributors'] as const;

/** GET /api/admin/distributors: by name. */
export const useDistributors = () =>
  useQuery({
    queryKey: distributorsKey,
    queryFn: ({ signal }) => api<Distributor[]>('/admin/distributors', { signal }),
  });

/** POST /api/admin/distributors, or PUT …/{id} to rename. Terms name distributors too, so they are read again. */
export function useSaveDistributor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id?: string; name: string }) =>
      id
        ? api<Distributor>(`/admin/distributors/${encodeURIComponent(id)}`, { method: 'PUT', body: { name } })
        : api<Distributor>('/admin/distributors', { method: 'POST', body: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
