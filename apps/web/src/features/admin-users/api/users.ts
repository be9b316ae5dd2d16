import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminUser, AdminUsersResponse, Role } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/admin/users?q=: accounts by part of a name or email. */
export const findUsers = (q: string, signal?: AbortSignal) =>
  api<AdminUsersResponse>(`/admin/users?q=${encodeURIComponent(q)}`, { signal });

export const useFindUsers = (q: string) =>
  useQuery({ queryKey: ['admin', 'users', q], queryFn: ({ signal }) => findUsers(q, signal) });

/** PUT /api/admin/users/{id}/role. */
export const useSetRole = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) =>
      api<AdminUser>(`/admin/users/${encodeURIComponent(id)}/role`, { method: 'PUT', body: { role } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin', 'users'] }),
  });
};
