import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateHallBody, HallLayoutResponse, UpdateLayoutBody } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { hallLayoutQueryKey } from './get-hall-layout';

/** POST /api/admin/halls: a new hall from its layout; 409 when the name is taken. */
export const createHall = (body: CreateHallBody) =>
  api<HallLayoutResponse>('/admin/halls', { method: 'POST', body: { ...body } });

/**
 * PUT /api/admin/halls/{id}/layout: the hall's new layout (and name). 409 seats_at_stake names the seats the edit
 * would move, retype or remove while they are held or sold for a coming showtime.
 */
export const updateHallLayout = (id: string, body: UpdateLayoutBody) =>
  api<HallLayoutResponse>(`/admin/halls/${encodeURIComponent(id)}/layout`, {
    method: 'PUT',
    body: { ...body },
  });

/** Creates the hall (no id) or saves its new layout; every admin list that names halls is read again. */
export function useSaveHall(id: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateHallBody) =>
      id ? updateHallLayout(id, { name: body.name, rows: body.layout.rows }) : createHall(body),
    onSuccess: async (hall) => {
      queryClient.setQueryData(hallLayoutQueryKey(hall.id), hall);
      // The halls list here, and the halls the showtime form offers (GET /api/admin/rooms).
      await queryClient.invalidateQueries({
        queryKey: ['admin'],
        predicate: (query) => query.queryKey[2] !== hall.id,
      });
    },
  });
}
