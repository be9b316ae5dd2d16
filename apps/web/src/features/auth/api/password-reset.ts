import type { ForgotPasswordBody, Ok, ResetPasswordBody } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** POST /api/auth/forgot-password: 202 whether or not an account uses the email. */
export const requestPasswordReset = (body: ForgotPasswordBody) =>
  api<Ok>('/auth/forgot-password', { method: 'POST', body });

/** POST /api/auth/reset-password: the emailed token and the new password; every session of the account ends. */
export const resetPassword = (body: ResetPasswordBody) =>
  api<Ok>('/auth/reset-password', { method: 'POST', body });
