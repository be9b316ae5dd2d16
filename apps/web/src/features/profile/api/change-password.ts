import { useMutation } from '@tanstack/react-query';
import type { PasswordChangeBody } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** PUT /api/user/password: needs the current password; the new one must meet the policy. */
export const changePassword = (body: PasswordChangeBody) =>
  api<{ ok: true }>('/user/password', { method: 'PUT', body });

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
