import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { bookings } from './bookings.ts';
import { PAYMENT_PROVIDERS } from './payments.ts';
import { CONCESSION_STATUSES, FULFILMENT_KINDS, products } from './concessions.ts';

// The order is the commerce core (DESIGN §7.1, decision 039): every sale, online or at the counter, is an order with
// lines (what was sold, each priced as charged) and payments (how it was paid). Checkout sessions, counter sales and
// refunds were moved here by migration 0028.

/**
 * `OPEN`: checkout started, not paid; `PAID`; `EXPIRED` / `CANCELLED`: never paid; `PARTLY_REFUNDED` / `REFUNDED`;
 * `SUPERSEDED`: replaced by a newer checkout of the same holds (one open checkout per booking, DESIGN §6.1), never
 * payable, and told apart from a cancel so the replaced one can be reopened if the provider fails.
 */
export const ORDER_STATUSES = [
  'OPEN',
  'PAID',
  'EXPIRED',
  'CANCELLED',
  'PARTLY_REFUNDED',
  'REFUNDED',
  'SUPERSEDED',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** The statuses of an order that was paid (whatever was refunded since). */
export const PAID_ORDER_STATUSES = [
  'PAID',
  'PARTLY_REFUNDED',
  'REFUNDED',
] as const satisfies readonly OrderStatus[];

/**
 * One order: a checkout online (its provider's session) or a sale at the counter. Our id is the sessionId clients
 * see; the provider's own id (a Stripe `cs_…`, or our id for the local provider) is unique so webhooks and return
 * URLs find the row.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /**
     * Where the order is paid: a provider's hosted checkout (`local`, `stripe`), nothing to pay (`none`), or the
     * counter (`box_office`). How it was paid is in its payments.
     */
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    /** Set once the provider has created its session (after our transaction commits). */
    providerSessionId: text('provider_session_id').unique('orders_provider_session_unique'),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('OPEN'),
    /** What the order costs in all: the sum of its lines' prices. */
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    url: text('url'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** The provider's payment (Stripe payment_intent) that refunds are made against. */
    providerPaymentId: text('provider_payment_id'),
    /** The order's short reference for people ("K7Q-4MX2"). */
    ref: text('ref').unique('orders_ref_unique'),
    /** Prices before the promo code, and what it took off (amountCents = subtotal - discount). */
    subtotalCents: integer('subtotal_cents'),
    discountCents: integer('discount_cents').notNull().default(0),
    /** How its lines were taxed (DESIGN §7.4): tax part of the prices or added on top; null before taxes (0037). */
    taxMode: text('tax_mode', { enum: ['inclusive', 'exclusive'] }),
    promoCode: text('promo_code'),
    /** Counter sales: cash or the card terminal (as its payment says), the staff member who sold it, the customer. */
    paymentMethod: text('payment_method', { enum: ['cash', 'card'] }),
    soldBy: uuid('sold_by').references(() => users.id, { onDelete: 'set null' }),
    customerEmail: text('customer_email'),
    customerName: text('customer_name'),
    /**
     * A guest order (a counter sale to an email no verified account has): the hash of the token its emailed link
     * carries, which shows the order and its tickets without signing in.
     */
    guestTokenHash: text('guest_token_hash').unique('orders_guest_token_hash_unique'),
    /**
     * Food and drink (DESIGN §7.2): collected at the counter (`PICKUP`) or brought to the seat of one of the order's
     * tickets (`SEAT`, `deliver_booking_id`) at `deliver_at`; where the kitchen has it once paid; who handed it over.
     */
    fulfilment: text('fulfilment', { enum: FULFILMENT_KINDS }),
    deliverBookingId: uuid('deliver_booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    deliverAt: timestamp('deliver_at', { withTimezone: true }),
    concessionStatus: text('concession_status', { enum: CONCESSION_STATUSES }),
    handedOverAt: timestamp('handed_over_at', { withTimezone: true }),
    handedOverBy: uuid('handed_over_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('orders_user_idx').on(t.userId),
    // The seat a food and drink order is brought to: deleting a booking (a hold that lost part of its seats, the
    // releasable bookings of a deleted showtime) checks this foreign key, which without an index reads every order.
    index('orders_deliver_booking_idx')
      .on(t.deliverBookingId)
      .where(sql`${t.deliverBookingId} is not null`),
    // No partial index on the status (`where status = 'OPEN'`): a planner whose statistics saw few open checkouts
    // reads a lookup by key through it, every open checkout of a rush each time (migration 0023, decision 028). The
    // sweeper scans the table once a minute instead (45 ms on a year of orders).
    check(
      'orders_status_check',
      sql`${t.status} in ('OPEN', 'PAID', 'EXPIRED', 'CANCELLED', 'PARTLY_REFUNDED', 'REFUNDED', 'SUPERSEDED')`,
    ),
    check('orders_provider_check', sql`${t.provider} in ('local', 'stripe', 'none', 'box_office')`),
    check(
      'orders_payment_method_check',
      sql`${t.paymentMethod} is null or ${t.paymentMethod} in ('cash', 'card')`,
    ),
    check('orders_amount_check', sql`${t.amountCents} >= 0`),
    check('orders_tax_mode_check', sql`${t.taxMode} is null or ${t.taxMode} in ('inclusive', 'exclusive')`),
    check('orders_fulfilment_check', sql`${t.fulfilment} is null or ${t.fulfilment} in ('PICKUP', 'SEAT')`),
    check(
      'orders_concession_status_check',
      sql`${t.concessionStatus} is null or ${t.concessionStatus} in ('PREPARING', 'READY', 'COLLECTED', 'DELIVERED')`,
    ),
    // The kitchen's screen: paid orders with food still to hand over.
    index('orders_concession_status_idx')
      .on(t.concessionStatus)
      .where(sql`${t.concessionStatus} in ('PREPARING', 'READY')`),
    // Its last column: the orders handed over in the last hours (migration 0034).
    index('orders_handed_over_at_idx')
      .on(t.handedOverAt)
      .where(sql`${t.handedOverAt} is not null`),
    // The orders of the last days: the mail sweep looks for confirmations never written (migration 0041). On the
    // creation time, never updated: an index on paid_at would make every payment's update of its order a new entry in
    // each of the table's indexes (no HOT update), and every later read of the order by its key read two.
    index('orders_created_idx').on(t.createdAt),
  ],
);

/**
 * What a line sells: a seat (`TICKET`, with its booking), a concession item (`PRODUCT`), a gift card sold
 * (`GIFT_CARD`) or a booking fee (`FEE`). docs/orders.md tells how a kind is added.
 */
export const LINE_KINDS = ['TICKET', 'PRODUCT', 'GIFT_CARD', 'FEE'] as const;
export type LineKind = (typeof LINE_KINDS)[number];

export const LINE_RESULTS = ['confirmed', 'refunded'] as const;

/**
 * One line of an order, priced as charged and kept so: its unit price, quantity, discount, tax rate and tax amount,
 * and what it costs (`price_cents` = unit price × quantity - discount, tax included). A ticket line copies its seat so
 * the customer can be told what was refunded even if the booking row is gone (a showtime deleted after an abandoned
 * checkout removes its released bookings; booking_id then becomes null).
 */
export const orderLines = pgTable(
  'order_lines',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: LINE_KINDS }).notNull().default('TICKET'),
    bookingId: uuid('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    /** What the line is, for any kind (a ticket's is built from its seat and type). */
    description: text('description'),
    seatRow: integer('seat_row'),
    seatNumber: integer('seat_number'),
    quantity: integer('quantity').notNull().default(1),
    /** The price of one, before any discount. */
    unitPriceCents: integer('unit_price_cents').notNull(),
    /** What the line costs in this order: unit price × quantity less its share of the discount. */
    priceCents: integer('price_cents').notNull(),
    /** The tax rate charged, in basis points (20% = 2000), and the tax in price_cents (decision 039). */
    taxRateBp: integer('tax_rate_bp').notNull().default(0),
    taxCents: integer('tax_cents').notNull().default(0),
    /** The ticket type it is sold as (its name kept as it was), its seat type and its price before the discount. */
    ticketTypeId: uuid('ticket_type_id'),
    ticketTypeName: text('ticket_type_name'),
    seatType: text('seat_type'),
    seatRowLabel: text('seat_row_label'),
    listPriceCents: integer('list_price_cents'),
    discountCents: integer('discount_cents').notNull().default(0),
    /** What fulfilment did with this line: confirmed it for this payment, or refunded it. */
    result: text('result', { enum: LINE_RESULTS }),
    /** After an exchange to a dearer seat or showtime: the difference still to collect from the customer. */
    dueCents: integer('due_cents').notNull().default(0),
    exchangedAt: timestamp('exchanged_at', { withTimezone: true }),
    /** A PRODUCT line: what it sells (its name and chosen options are in `description`), and whether staff check ID. */
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    ageRestricted: boolean('age_restricted').notNull().default(false),
    /** A gift card line: who the card is for (emailed there once paid) and the buyer's message. */
    recipientEmail: text('recipient_email'),
    message: text('message'),
    /** A FEE line: whether a refund of the order's tickets gives it back (the fee's setting when it was sold). */
    refundable: boolean('refundable').notNull().default(true),
    /** A FEE line: the showtime the sales report counts it with (its order's first ticket's; migration 0039). */
    feeShowtimeId: uuid('fee_showtime_id'),
  },
  (t) => [
    uniqueIndex('order_lines_order_booking_unique').on(t.orderId, t.bookingId),
    index('order_lines_booking_idx').on(t.bookingId),
    index('order_lines_order_idx').on(t.orderId),
    // The sales report's booking fees by showtime.
    index('order_lines_fee_showtime_idx')
      .on(t.feeShowtimeId)
      .where(sql`${t.feeShowtimeId} is not null`),
    // What sold a product (deleting it, the report by product).
    index('order_lines_product_idx')
      .on(t.productId)
      .where(sql`${t.productId} is not null`),
    check('order_lines_result_check', sql`${t.result} is null or ${t.result} in ('confirmed', 'refunded')`),
    check('order_lines_kind_check', sql`${t.kind} in ('TICKET', 'PRODUCT', 'GIFT_CARD', 'FEE')`),
    check(
      'order_lines_ticket_check',
      sql`${t.kind} <> 'TICKET' or (${t.seatRow} is not null and ${t.seatNumber} is not null and ${t.quantity} = 1)`,
    ),
    check('order_lines_booking_check', sql`${t.kind} = 'TICKET' or ${t.bookingId} is null`),
    check(
      'order_lines_amounts_check',
      sql`${t.quantity} > 0 and ${t.unitPriceCents} >= 0 and ${t.discountCents} >= 0 and ${t.priceCents} >= 0
        and ${t.taxCents} >= 0 and ${t.taxCents} <= ${t.priceCents} and ${t.taxRateBp} >= 0`,
    ),
  ],
);

/**
 * Stock an order line holds: taken from the product when the order was created (or when a closed order was paid
 * after all), given back when the order closes unpaid or the line is refunded. A row exists exactly while the
 * stock is out of `products.stock`.
 */
export const stockReservations = pgTable(
  'stock_reservations',
  {
    lineId: uuid('line_id')
      .notNull()
      .references(() => orderLines.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.lineId, t.productId] }),
    check('stock_reservations_quantity_check', sql`${t.quantity} > 0`),
  ],
);

/** How an order was paid: the provider's card checkout, a gift card, cash or the card terminal at the counter, or nothing. */
export const PAYMENT_METHODS = ['CARD', 'GIFT_CARD', 'CASH', 'CARD_TERMINAL', 'FREE'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** `PENDING`: reserved while the order is open (a gift card's amount); `PAID`; `VOIDED`: the order was never paid. */
export const PAYMENT_STATUSES = ['PENDING', 'PAID', 'VOIDED'] as const;

/**
 * One payment of an order; an order may be paid several ways (a gift card, then a card for the rest). What was
 * refunded of it is kept beside it, and the database refuses to give back more than was paid.
 */
export const orderPayments = pgTable(
  'order_payments',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    method: text('method', { enum: PAYMENT_METHODS }).notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('PAID'),
    amountCents: integer('amount_cents').notNull(),
    refundedCents: integer('refunded_cents').notNull().default(0),
    /** CARD: the provider (`local`, `stripe`) and its payment (a Stripe payment_intent) refunds are made against. */
    provider: text('provider'),
    providerReference: text('provider_reference'),
    /** GIFT_CARD: the card it was taken from (what is refunded of it goes back there). */
    giftCardId: uuid('gift_card_id').references(() => giftCards.id, { onDelete: 'restrict' }),
    /** The staff member who took it (counter sales). */
    takenBy: uuid('taken_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    index('order_payments_order_idx').on(t.orderId),
    index('order_payments_gift_card_idx')
      .on(t.giftCardId)
      .where(sql`${t.giftCardId} is not null`),
    check('order_payments_gift_card_check', sql`(${t.method} = 'GIFT_CARD') = (${t.giftCardId} is not null)`),
    check(
      'order_payments_method_check',
      sql`${t.method} in ('CARD', 'GIFT_CARD', 'CASH', 'CARD_TERMINAL', 'FREE')`,
    ),
    check('order_payments_status_check', sql`${t.status} in ('PENDING', 'PAID', 'VOIDED')`),
    check(
      'order_payments_amounts_check',
      sql`${t.amountCents} >= 0 and ${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.amountCents}`,
    ),
  ],
);

export const REFUND_STATUSES = ['pending', 'succeeded'] as const;
/**
 * `lost_seat`: paid for a seat that was gone (fulfilment); `staff`: a line refunded by staff; `exchange`: the
 * difference when staff moved a ticket to a cheaper seat or showtime. A line is refunded whole at most once.
 */
export const REFUND_KINDS = ['lost_seat', 'staff', 'exchange'] as const;

/**
 * Money given back for a line of an order, to one of its payments. Written inside the transaction that decides it as
 * `pending` (with the payment's `refunded_cents`), sent to the provider after commit (recorded only for cash, the
 * card terminal and free orders), and retried until it succeeds.
 */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    lineId: uuid('line_id')
      .notNull()
      .references(() => orderLines.id, { onDelete: 'cascade' }),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => orderPayments.id, { onDelete: 'cascade' }),
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
    uniqueIndex('order_refunds_whole_line_unique')
      .on(t.lineId, t.paymentId)
      .where(sql`${t.kind} <> 'exchange'`),
    index('order_refunds_order_idx').on(t.orderId),
    // The refunds of the last days a notice is sent for: the mail sweep looks for notices never written (0041).
    index('order_refunds_notice_idx')
      .on(t.createdAt)
      .where(sql`${t.kind} <> 'lost_seat'`),
    // The sales report sums a line's refunds (exchange differences too, which the unique index above leaves out).
    index('order_refunds_line_idx').on(t.lineId),
    index('order_refunds_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    check('order_refunds_status_check', sql`${t.status} in ('pending', 'succeeded')`),
    check('order_refunds_kind_check', sql`${t.kind} in ('lost_seat', 'staff', 'exchange')`),
    check('order_refunds_amount_check', sql`${t.amountCents} >= 0`),
  ],
);

/** A gift card (DESIGN §7.3, decision 045): its ledger is `gift_card_transactions` (gift-cards.ts). */
export const GIFT_CARD_STATUSES = ['ACTIVE', 'VOIDED'] as const;
export type GiftCardStatus = (typeof GIFT_CARD_STATUSES)[number];

export const giftCards = pgTable(
  'gift_cards',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`uuid_v7()`),
    /** 16 characters of Crockford's base32 (80 random bits), stored without the dashes people see. */
    code: text('code').notNull().unique('gift_cards_code_unique'),
    /** The cinema's currency when it was sold (ISO 4217, upper case); it pays only in that currency. */
    currency: text('currency').notNull(),
    initialCents: integer('initial_cents').notNull(),
    balanceCents: integer('balance_cents').notNull(),
    status: text('status', { enum: GIFT_CARD_STATUSES }).notNull().default('ACTIVE'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The order and line that sold it. */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    lineId: uuid('line_id').references(() => orderLines.id, { onDelete: 'set null' }),
    /** Who it is for (online: emailed there), and the buyer's message. */
    recipientEmail: text('recipient_email'),
    message: text('message'),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidedBy: uuid('voided_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('gift_cards_recipient_idx').on(sql`lower(${t.recipientEmail})`),
    index('gift_cards_order_idx').on(t.orderId),
    // The cards orders sold in the last days: the mail sweep looks for their emails never written (migration 0041).
    index('gift_cards_sold_idx')
      .on(t.createdAt)
      .where(sql`${t.orderId} is not null`),
    check('gift_cards_code_check', sql`${t.code} ~ '^[0-9A-HJKMNP-TV-Z]{16}$'`),
    check('gift_cards_status_check', sql`${t.status} in ('ACTIVE', 'VOIDED')`),
    check(
      'gift_cards_balance_check',
      sql`${t.initialCents} > 0 and ${t.balanceCents} >= 0 and ${t.balanceCents} <= ${t.initialCents}`,
    ),
  ],
);
