import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminMenu, Product, ProductBody } from '@cinema/contract';
import { api } from '../../../lib/api-client';

export const adminMenuQueryKey = ['admin', 'concessions'] as const;

/** GET /api/admin/concessions: every category and product, inactive ones too. */
export const useAdminMenu = () =>
  useQuery({
    queryKey: adminMenuQueryKey,
    queryFn: ({ signal }) => api<AdminMenu>('/admin/concessions', { signal }),
  });

/** POST /api/admin/products, or PUT …/{id} when editing. */
export function useSaveProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: ProductBody }) =>
      id
        ? api<Product>(`/admin/products/${encodeURIComponent(id)}`, { method: 'PUT', body })
        : api<Product>('/admin/products', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminMenuQueryKey }),
  });
}

/** POST /api/admin/products/{id}/stock: what is left (null: not counted), or a delivery added. */
export function useChangeStock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; stock?: number | null; add?: number }) =>
      api<Product>(`/admin/products/${encodeURIComponent(id)}/stock`, { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminMenuQueryKey }),
  });
}

/** DELETE /api/admin/products/{id} (409 once sold or in a combo). */
export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/admin/products/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminMenuQueryKey }),
  });
}
