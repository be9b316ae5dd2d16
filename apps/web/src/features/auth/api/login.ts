import type { AuthResponse, LoginBody } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { saveSession } from '../../../lib/session';
import { useSubmit } from '../../../lib/use-submit';

/** POST /api/auth/login: the user and a fresh session token. */
export const login = (body: LoginBody) => api<AuthResponse>('/auth/login', { method: 'POST', body });

/** Signs in and stores the session; the visitor guard then sends the user on. */
export function useLogin() {
  return useSubmit(login, storeSession);
}

const storeSession = ({ token, user }: AuthResponse) => saveSession(token, user);
