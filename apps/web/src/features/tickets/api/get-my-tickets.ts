import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Ticket } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/me/tickets: the signed-in customer's paid tickets, upcoming first. */
export const getMyTickets = (signal?: AbortSignal) =>
  api<{ tickets: Ticket[] }>('/me/tickets', { signal }).then((r) => r.tickets);

export const myTicketsQueryOptions = () =>
  queryOptions({ queryKey: ['tickets', 'mine'], queryFn: ({ signal }) => getMyTickets(signal) });

// Always fresh on arrival: the customer usually comes here straight from paying.
export const useMyTickets = () => useQuery({ ...myTicketsQueryOptions(), refetchOnMount: 'always' });
