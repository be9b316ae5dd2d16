import { useMutation } from '@tanstack/react-query';
import type { AuthResponse, RegisterBody } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { saveSession } from '../../../lib/session';

/** POST /api/auth/register: creates the account and answers with a session like login does. */
export const register = (body: RegisterBody) => api<AuthResponse>('/auth/register', { method: 'POST', body });

/** Creates the account and signs in with the returned session (the automatic login after registering). */
export function useRegister() {
  return useMutation({
    mutationFn: register,
    onSuccess: ({ token, user }) => saveSession(token, user),
  });
}
