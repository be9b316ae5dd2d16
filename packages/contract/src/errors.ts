import { z } from 'zod';

/** The one error envelope of the API: `{ error, code }` with a stable snake_case code. */
export const ErrorSchema = z.object({
  error: z.string(),
  code: z.string().optional(),
});
export type ApiError = z.infer<typeof ErrorSchema>;

/** A hold that could not be made names the seats that were not available. */
export const SeatConflictErrorSchema = ErrorSchema.extend({
  seatIds: z.array(z.string()),
});
export type SeatConflictError = z.infer<typeof SeatConflictErrorSchema>;

export const ErrorCodes = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
  'internal_error',
  'invalid_credentials',
  'email_taken',
  'weak_password',
  'wrong_password',
  'seat_unavailable',
  'showtime_overlap',
  'batch_clashes',
  'showtime_started',
  'has_sold_tickets',
  'hold_limit',
  'hold_expired',
  'already_paid',
  'ticket_not_paid',
  'bad_signature',
  'payment_provider_error',
  'seat_blocked',
  'sofa_pair',
  'companion_needs_wheelchair',
  'single_seat_gap',
  'seats_at_stake',
  'no_seats_together',
  'promo_unavailable',
  'ticket_type_unavailable',
  'in_use',
  'not_refundable',
  'checked_in',
  'invalid_reset_link',
] as const;
export type ErrorCode = (typeof ErrorCodes)[number];
