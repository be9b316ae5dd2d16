import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminMenu, Fees, Taxes, TaxesBody, TicketType } from '@cinema/contract';
import { api } from '../../../lib/api-client';

const taxesKey = ['admin', 'taxes'] as const;
const feesKey = ['admin', 'fees'] as const;

/** GET /api/admin/taxes: the mode in force and every rate. */
export const useTaxes = () =>
  useQuery({ queryKey: taxesKey, queryFn: ({ signal }) => api<Taxes>('/admin/taxes', { signal }) });

/** PUT /api/admin/taxes: the mode and every rate (the list replaces them). */
export function useSaveTaxes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TaxesBody) => api<Taxes>('/admin/taxes', { method: 'PUT', body }),
    onSuccess: (saved) => queryClient.setQueryData(taxesKey, saved),
  });
}

/** GET /api/admin/fees: the booking fees online and at the counter. */
export const useFees = () =>
  useQuery({ queryKey: feesKey, queryFn: ({ signal }) => api<Fees>('/admin/fees', { signal }) });

/** PUT /api/admin/fees. */
export function useSaveFees() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Fees) => api<Fees>('/admin/fees', { method: 'PUT', body }),
    onSuccess: (saved) => queryClient.setQueryData(feesKey, saved),
  });
}

/** The menu's categories and products a rate may name (GET /api/admin/concessions). */
export const useMenuForTaxes = () =>
  useQuery({
    queryKey: ['admin', 'concessions'],
    queryFn: ({ signal }) => api<AdminMenu>('/admin/concessions', { signal }),
  });

/** The ticket types a fee may leave out (GET /api/admin/ticket-types). */
export const useTicketTypesForFees = () =>
  useQuery({
    queryKey: ['admin', 'ticket-types'],
    queryFn: ({ signal }) => api<TicketType[]>('/admin/ticket-types', { signal }),
  });
