import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TicketType, UpdateTicketTypeBody } from '@cinema/contract';
import { api } from '../../../lib/api-client';

export const ticketTypesQueryKey = ['admin', 'ticket-types'] as const;

/** GET /api/admin/ticket-types: every ticket type in the order customers see them (inactive ones too). */
export const useTicketTypes = () =>
  useQuery({
    queryKey: ticketTypesQueryKey,
    queryFn: ({ signal }) => api<TicketType[]>('/admin/ticket-types', { signal }),
  });

/** POST /api/admin/ticket-types (409 when the name is taken) and PUT …/{id} (rename, (de)activate). */
export function useSaveTicketType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateTicketTypeBody & { id?: string }) =>
      id
        ? api<TicketType>(`/admin/ticket-types/${encodeURIComponent(id)}`, { method: 'PUT', body })
        : api<TicketType>('/admin/ticket-types', { method: 'POST', body: { name: body.name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketTypesQueryKey }),
  });
}
