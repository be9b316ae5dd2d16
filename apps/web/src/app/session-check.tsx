import { useEffect } from 'react';
import type { User } from '@cinema/contract';
import { api, ApiError } from '../lib/api-client';
import { clearSession, getToken, updateSessionUser } from '../lib/session';

/** At start, a stored session the server rejects is cleared; an accepted one refreshes the stored user. */
export function SessionCheck() {
  useEffect(() => {
    if (!getToken()) return;
    api<User>('/user/me')
      .then(updateSessionUser)
      .catch((err) => {
        if (err instanceof ApiError && err.status === 401) clearSession();
      });
  }, []);
  return null;
}
