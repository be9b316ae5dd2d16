import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from './api-client';
import { clearSession } from './session';

// Loaded with the first screen that reads data (every lazy screen gets QueryProvider), never in the first load.
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

/** The app's one query client, for a screen. */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
