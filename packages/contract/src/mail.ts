import { z } from 'zod';
import { PasswordSchema } from './auth.ts';

/** One email as the outbox keeps it (DESIGN §6.6): `GET /api/admin/outbox`, newest first. */
export const OutboxMessageSchema = z.object({
  id: z.string(),
  /** order_confirmation, refund_notice, password_reset or email_verification. */
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  attachments: z.array(z.object({ filename: z.string(), contentType: z.string() })),
  /** pending: to be sent (retried); sent: the SMTP server took it; failed: given up; stored: no SMTP_URL. */
  status: z.enum(['pending', 'sent', 'failed', 'stored']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type OutboxMessage = z.infer<typeof OutboxMessageSchema>;

export const OutboxResponseSchema = z.object({
  messages: z.array(OutboxMessageSchema),
  nextPage: z.number().int().nullable(),
});
export type OutboxResponse = z.infer<typeof OutboxResponseSchema>;
export const OutboxQuerySchema = z.object({ page: z.coerce.number().int().min(1).max(1000).default(1) });

/** `POST /api/auth/forgot-password`: always 202, whether or not an account has this email. */
export const ForgotPasswordBodySchema = z.object({
  email: z.string().trim().min(1, 'Email is required').max(254),
});
export type ForgotPasswordBody = z.input<typeof ForgotPasswordBodySchema>;

/** `POST /api/auth/reset-password`: the token from the emailed link and the new password. */
export const ResetPasswordBodySchema = z.object({
  token: z.string().min(1, 'The reset link is incomplete').max(200),
  newPassword: PasswordSchema,
});
export type ResetPasswordBody = z.input<typeof ResetPasswordBodySchema>;

/** `POST /api/auth/verify-email`: the token from the emailed verification link. */
export const VerifyEmailBodySchema = z.object({
  token: z.string().min(1, 'The verification link is incomplete').max(200),
});
export type VerifyEmailBody = z.input<typeof VerifyEmailBodySchema>;

/** The answer to a used verification link: the address now verified and the box-office orders it brought in. */
export const VerifyEmailResponseSchema = z.object({
  ok: z.literal(true),
  email: z.string(),
  /** Counter sales to this email that were kept as guest orders and now belong to the account. */
  claimedOrders: z.number().int(),
});
export type VerifyEmailResponse = z.infer<typeof VerifyEmailResponseSchema>;
