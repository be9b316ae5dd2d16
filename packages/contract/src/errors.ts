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
/** A 503 while a dependency is away: also in the Retry-After header. */
export const UnavailableErrorSchema = ErrorSchema.extend({
  retryAfterSeconds: z.number().int().positive(),
});
export type UnavailableError = z.infer<typeof UnavailableErrorSchema>;

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
  'more_time_used',
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
  /** 409: the ticket type excludes the film's certificate (no Child ticket for an R film: DESIGN §7.5). */
  'ticket_type_not_for_rating',
  'in_use',
  'not_refundable',
  'checked_in',
  'last_admin',
  'wrong_showtime',
  'too_early',
  'too_late',
  'not_checked_in',
  'undo_expired',
  /** 503: the database (or the disk under it) is briefly away; try again after the Retry-After header's seconds. */
  'service_unavailable',
  /** 422: an Idempotency-Key sent again with a different request. */
  'idempotency_key_reused',
  /** 409: a retry while the request first sent with its Idempotency-Key is still being handled. */
  'idempotency_key_in_progress',
  'invalid_reset_link',
  /** 431: the request's headers are over the server's limit (16 KB). */
  'request_headers_too_large',
  /** 408: the request did not arrive in time. */
  'request_timeout',
  /** 400: an email verification link used, expired, ended by a change of email or password, or unknown. */
  'invalid_verification_link',
  /** 400: the address belongs to the cinema (the box office's walk-in account): nobody registers or takes it. */
  'email_reserved',
  /** 409: the customer is in this showtime's waiting list already. */
  'waitlist_joined',
  /** 409: the customer is on as many waiting lists as a customer may be (MAX_WAITLIST_ENTRIES). */
  'waitlist_limit',
  /** 409: a product of the order is sold out (`productIds` names it) or no longer on the menu. */
  'sold_out',
  'product_unavailable',
  /** 404: no gift card has the code given to pay with (DESIGN §7.3). */
  'gift_card_not_found',
  /** 409: a gift card that cannot pay: voided, expired, in another currency, empty, or not needed by the order. */
  'gift_card_voided',
  'gift_card_expired',
  'gift_card_currency',
  'gift_card_empty',
  'gift_card_not_needed',
  /** 409: a refund of a gift card purchase whose card was already used. */
  'gift_card_used',
  /** 409: an order with no food or drink (left) to prepare or hand over. */
  'no_items',
  /** 409: the order's food and drink were handed over already (`handedOverAt`, `handedOverBy`). */
  'already_handed_over',
] as const;
export type ErrorCode = (typeof ErrorCodes)[number];

/** What `/api/health` looked at: each dependency up or down (Redis only when configured, disk on the embedded engine). */
export const HealthChecksSchema = z.object({
  database: z.enum(['up', 'down']),
  redis: z.enum(['up', 'down']).optional(),
  disk: z.enum(['up', 'down']).optional(),
  /** Free bytes where the embedded database writes. */
  diskFreeBytes: z.number().optional(),
});
export const HealthSchema = z.object({
  ok: z.literal(true),
  /** The engine: pglite or postgres. */
  database: z.string(),
  checks: HealthChecksSchema,
});
export type Health = z.infer<typeof HealthSchema>;
export const HealthDownSchema = UnavailableErrorSchema.extend({ checks: HealthChecksSchema });
