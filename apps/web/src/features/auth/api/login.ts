import { useMutation } from '@tanstack/react-query';
import type { AuthResponse, LoginBody } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { saveSession } from '../../../lib/session';

/** POST /api/auth/login: the user and a fresh session token. */
export const login = (body: LoginBody) => api<AuthResponse>('/auth/login', { method: 'POST', body });

/** Signs in and stores the session; the visitor guard then sends the user on. */
export function useLogin() {
  return useMutation({
    mutationFn: login,
    onSuccess: ({ token, user }) => saveSession(token, user),
  });
}
