import { api } from '../lib/api-client';
import { queryClient } from '../lib/query-client';
import { clearSession } from '../lib/session';

/** Ends the session on the server (best effort) and forgets it here. */
export async function logout() {
  await api('/auth/logout', { method: 'POST' }).catch(() => undefined);
  clearSession();
  queryClient.clear();
}
