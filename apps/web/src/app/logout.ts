import { api } from '../lib/api-client';
import { clearSession } from '../lib/session';

/** Ends the session on the server (best effort) and forgets it here. */
export async function logout() {
  await api('/auth/logout', { method: 'POST' }).catch(() => undefined);
  clearSession();
  // Imported here, not above, so the query client stays out of the first load (screens bring it).
  const { queryClient } = await import('../lib/query-client');
  queryClient.clear();
}
