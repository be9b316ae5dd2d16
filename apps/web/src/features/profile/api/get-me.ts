import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** GET /api/user/me: the signed-in user's account. */
export const getMe = (signal?: AbortSignal) => api<User>('/user/me', { signal });

export const meQueryOptions = () =>
  queryOptions({ queryKey: ['user', 'me'], queryFn: ({ signal }) => getMe(signal) });

export const useMe = () => useQuery(meQueryOptions());
