import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { bookings } from './bookings.ts';

/**
 * `none`: an order that costs nothing (a 100% promo code) is complete without a payment provider. `box_office`: sold
 * at the counter by staff, paid in cash or on the card terminal (DESIGN §6.4).
 */
export const PAYMENT_PROVIDERS = ['local', 'stripe', 'none', 'box_office'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export const CHECKOUT_STATUSES = [
  'open',
  'paid',
  'expired',
  'cancelled',
  'refunded',
  'partially_refunded',
  /** Replaced by a newer checkout of the same holds (one open session per booking, DESIGN §6.1): never payable. */
  'superseded',
] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/**
 * One payment attempt for a set of held bookings. Our id is the sessionId clients see; the provider's own id
 * (a Stripe `cs_…`, or our id for the local provider) is unique so webhooks and return URLs find the row.
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    /** Set once the provider has created its session (after our transaction commits). */
    providerSessionId: text('provider_session_id').unique('checkout_sessions_provider_session_unique'),
    status: text('status', { enum: CHECKOUT_STATUSES }).notNull().default('open'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    url: text('url'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** The provider's payment (Stripe payment_intent) that refunds are made against. */
    providerPaymentId: text('provider_payment_id'),
    /** The order's short reference for people ("K7Q-4MX2"): a checkout is an order. */
    ref: text('ref').unique('checkout_sessions_ref_unique'),
    /** Prices before the promo code, and what it took off (amountCents = subtotal - discount). */
    subtotalCents: integer('subtotal_cents'),
    discountCents: integer('discount_cents').notNull().default(0),
    promoCode: text('promo_code'),
    /** Counter sales: cash or the card terminal, the staff member who sold it, and the customer if they gave one. */
    paymentMethod: text('payment_method', { enum: ['cash', 'card'] }),
    soldBy: uuid('sold_by').references(() => users.id, { onDelete: 'set null' }),
    customerEmail: text('customer_email'),
    customerName: text('customer_name'),
    /**
     * A guest order (a counter sale to an email no verified account has): the hash of the token its emailed link
     * carries, which shows the order and its tickets without signing in.
     */
    guestTokenHash: text('guest_token_hash').unique('checkout_sessions_guest_token_hash_unique'),
  },
  (t) => [
    index('checkout_sessions_user_idx').on(t.userId),
    // No partial index on the status (`where status = 'open'`): a planner whose statistics saw few open checkouts
    // reads a lookup by key through it, every open checkout of a rush each time (migration 0023, decision 028). The
    // sweeper scans the table once a minute instead (45 ms on a year of orders).
    check(
      'checkout_sessions_status_check',
      sql`${t.status} in ('open', 'paid', 'expired', 'cancelled', 'refunded', 'partially_refunded', 'superseded')`,
    ),
    check(
      'checkout_sessions_provider_check',
      sql`${t.provider} in ('local', 'stripe', 'none', 'box_office')`,
    ),
    check(
      'checkout_sessions_payment_method_check',
      sql`${t.paymentMethod} is null or ${t.paymentMethod} in ('cash', 'card')`,
    ),
    check('checkout_sessions_amount_check', sql`${t.amountCents} >= 0`),
  ],
);

export const SESSION_BOOKING_RESULTS = ['confirmed', 'refunded'] as const;

/**
 * The seats a session pays for, with the price charged for each: kept here, never only in provider metadata.
 * The seat is copied so the customer can be told what was refunded even if the booking row is gone (a showtime
 * deleted after an abandoned checkout removes its released bookings; booking_id then becomes null).
 */
export const checkoutSessionBookings = pgTable(
  'checkout_session_bookings',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => checkoutSessions.id, { onDelete: 'cascade' }),
    bookingId: uuid('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    seatRow: integer('seat_row').notNull(),
    seatNumber: integer('seat_number').notNull(),
    /** What the seat costs in this order: its list price less its share of the discount. */
    priceCents: integer('price_cents').notNull(),
    /** The ticket type it is sold as (its name kept as it was), its seat type and its price before the discount. */
    ticketTypeId: uuid('ticket_type_id'),
    ticketTypeName: text('ticket_type_name'),
    seatType: text('seat_type'),
    seatRowLabel: text('seat_row_label'),
    listPriceCents: integer('list_price_cents'),
    discountCents: integer('discount_cents').notNull().default(0),
    /** What fulfilment did with this seat: confirmed it for this payment, or refunded it. */
    result: text('result', { enum: SESSION_BOOKING_RESULTS }),
    /** After an exchange to a dearer seat or showtime: the difference still to collect from the customer. */
    dueCents: integer('due_cents').notNull().default(0),
    exchangedAt: timestamp('exchanged_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('checkout_session_bookings_session_booking_unique').on(t.sessionId, t.bookingId),
    index('checkout_session_bookings_booking_idx').on(t.bookingId),
    check(
      'checkout_session_bookings_result_check',
      sql`${t.result} is null or ${t.result} in ('confirmed', 'refunded')`,
    ),
  ],
);

export const REFUND_STATUSES = ['pending', 'succeeded'] as const;
/**
 * `lost_seat`: paid for a seat that was gone (fulfilment); `staff`: a ticket refunded by staff; `exchange`: the
 * difference when staff moved a ticket to a cheaper seat or showtime. A seat is refunded whole at most once.
 */
export const REFUND_KINDS = ['lost_seat', 'staff', 'exchange'] as const;

/**
 * Money given back for a line of an order. Written inside the transaction that decides it as `pending`, sent to the
 * provider after commit (recorded only for test, counter and free orders), and retried until it succeeds.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => checkoutSessions.id, { onDelete: 'cascade' }),
    sessionBookingId: uuid('session_booking_id')
      .notNull()
      .references(() => checkoutSessionBookings.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    kind: text('kind', { enum: REFUND_KINDS }).notNull().default('lost_seat'),
    /** The staff member who refunded (null for fulfilment's own refunds), and why. */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason'),
    status: text('status', { enum: REFUND_STATUSES }).notNull().default('pending'),
    providerRefundId: text('provider_refund_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_refunds_whole_seat_unique')
      .on(t.sessionBookingId)
      .where(sql`${t.kind} <> 'exchange'`),
    index('payment_refunds_session_idx').on(t.sessionId),
    // The sales report sums a line's refunds (exchange differences too, which the unique index above leaves out).
    index('payment_refunds_line_idx').on(t.sessionBookingId),
    index('payment_refunds_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    check('payment_refunds_status_check', sql`${t.status} in ('pending', 'succeeded')`),
    check('payment_refunds_kind_check', sql`${t.kind} in ('lost_seat', 'staff', 'exchange')`),
    check('payment_refunds_amount_check', sql`${t.amountCents} >= 0`),
  ],
);

/** Provider webhook events already handled, by the provider's event id: a replay changes nothing. */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
