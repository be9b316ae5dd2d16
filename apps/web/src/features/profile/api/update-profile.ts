import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileBody, User } from '@cinema/contract';
import { api } from '../../../lib/api-client';
import { updateSessionUser } from '../../../lib/session';
import { meQueryOptions } from './get-me';

/** PUT /api/user/profile: new name and email; answers with the updated user. */
export const updateProfile = (body: ProfileBody) => api<User>('/user/profile', { method: 'PUT', body });

/** Saves the profile and refreshes both the cached account and the stored session user (the header). */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      queryClient.setQueryData(meQueryOptions().queryKey, user);
      updateSessionUser(user);
    },
  });
}
