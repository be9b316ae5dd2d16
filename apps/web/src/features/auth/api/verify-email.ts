import type { Ok, VerifyEmailBody, VerifyEmailResponse } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** POST /api/auth/verify-email: the emailed link's token; counter sales kept for the address join the account. */
export const verifyEmail = (body: VerifyEmailBody) =>
  api<VerifyEmailResponse>('/auth/verify-email', { method: 'POST', body });

/** POST /api/auth/verify-email/resend: a new link to the signed-in user's address (202 in any case). */
export const resendVerification = () => api<Ok>('/auth/verify-email/resend', { method: 'POST' });
