import type { AuthResponse, RegisterBody } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { saveSession } from '../../../lib/session';
import { useSubmit } from '../../../lib/use-submit';

/** POST /api/auth/register: creates the account and answers with a session like login does. */
export const register = (body: RegisterBody) => api<AuthResponse>('/auth/register', { method: 'POST', body });

/** Creates the account and signs in with the returned session (the automatic login after registering). */
export function useRegister() {
  return useSubmit(register, storeSession);
}

const storeSession = ({ token, user }: AuthResponse) => saveSession(token, user);
