import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { clearSession } from './session';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
    },
  },
});

// A token the server no longer accepts ends the session in this browser.
queryClient.getQueryCache().subscribe((event) => {
  if (event.type === 'updated' && event.action.type === 'error') {
    const err = event.action.error;
    if (err instanceof ApiError && err.status === 401) clearSession();
  }
});
