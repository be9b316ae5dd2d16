import { z } from 'zod';
import { IdSchema, OneLineTextSchema } from './common.ts';
import { ErrorSchema } from './errors.ts';
import { TAX_MODES } from './tax-rules.ts';
import { GiftCardPurchasesSchema, RedeemSchema } from './gift-cards.ts';
import { ProductOrderSchema } from './concessions.ts';
import { OrderLineSchema, OrderSchema } from './pricing.ts';
import { TicketSchema } from './tickets.ts';

// DESIGN §6.4: orders as staff see them, refunds, exchanges and counter sales.

/** A line of an order as staff see it: whether the ticket was used, and what is still to collect after an exchange. */
export const StaffOrderLineSchema = OrderLineSchema.extend({
  showtimeId: z.string().nullable(),
  movieId: z.string().nullable(),
  checkedInAt: z.string().nullable(),
  /** After an exchange to a dearer seat or showtime: the difference still to collect. */
  dueCents: z.number().int(),
  exchangedAt: z.string().nullable(),
});
export type StaffOrderLine = z.infer<typeof StaffOrderLineSchema>;

export const PaymentMethodSchema = z.enum(['cash', 'card']);
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;

export const StaffOrderSchema = OrderSchema.extend({
  lines: z.array(StaffOrderLineSchema),
  customer: z.object({ email: z.string().nullable(), name: z.string().nullable() }),
  /** How it was paid: `stripe`, `local` (test), `none` (nothing to pay) or `box_office`. */
  provider: z.string(),
  paymentMethod: PaymentMethodSchema.nullable(),
  /** The staff member who sold it at the counter. */
  soldBy: z.string().nullable(),
  refunds: z.array(
    z.object({
      amountCents: z.number().int(),
      status: z.string(),
      createdAt: z.string(),
      kind: z.string(),
      reason: z.string().nullable(),
      by: z.string().nullable(),
    }),
  ),
});
export type StaffOrder = z.infer<typeof StaffOrderSchema>;

export const StaffOrdersQuerySchema = z.object({
  /** An order reference, a customer's email (or part of it), or empty for the newest orders. */
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(1000).default(1),
});
export const StaffOrdersResponseSchema = z.object({
  orders: z.array(StaffOrderSchema),
  nextPage: z.number().int().nullable(),
});

export const RefundBodySchema = z.object({
  /** The tickets to refund; without them, every ticket of the order still standing. */
  bookingIds: z.array(IdSchema).min(1, 'Choose a ticket to refund').max(100).optional(),
  /** Food and drink lines to refund (an order's `products[].lineId`); their stock goes back on sale. */
  productLineIds: z.array(IdSchema).min(1, 'Choose an item to refund').max(100).optional(),
  /** Gift cards the order sold (`giftCard.lineId`): each is voided, refused (409 `gift_card_used`) once used. */
  giftCardLineIds: z.array(IdSchema).min(1, 'Choose a gift card to refund').max(10).optional(),
  /** Refund tickets that were already used at the door. */
  force: z.boolean().optional(),
  reason: OneLineTextSchema('Reason', 300).optional(),
});
export type RefundBody = z.infer<typeof RefundBodySchema>;

export const RefundResponseSchema = z.object({
  order: StaffOrderSchema,
  /** What this request refunded (0 when the tickets had been refunded already: a retry changes nothing). */
  refundedCents: z.number().int(),
  refundedBookingIds: z.array(z.string()),
});
export type RefundResponse = z.infer<typeof RefundResponseSchema>;

export const ExchangeBodySchema = z.object({
  moves: z
    .array(
      z.object({
        bookingId: IdSchema,
        /** The seat it moves to, in `showtimeId`'s hall (the ticket's own showtime when not given). */
        seatId: IdSchema,
        showtimeId: IdSchema.optional(),
      }),
    )
    .min(1, 'Choose a ticket to move')
    .max(20)
    .refine((m) => new Set(m.map((x) => x.bookingId.toLowerCase())).size === m.length, {
      message: 'Each ticket once',
    }),
  /** Move tickets that were already used at the door. */
  force: z.boolean().optional(),
});
export type ExchangeBody = z.infer<typeof ExchangeBodySchema>;

export const ExchangeResponseSchema = z.object({
  order: StaffOrderSchema,
  /** Given back because the new seats cost less, and still to collect because they cost more (this request). */
  refundedCents: z.number().int(),
  dueCents: z.number().int(),
  movedBookingIds: z.array(z.string()),
});
export type ExchangeResponse = z.infer<typeof ExchangeResponseSchema>;

export const CounterSaleBodySchema = z
  .object({
    /** The showtime of the seats sold; none when only gift cards are sold. */
    showtimeId: IdSchema.optional(),
    seatIds: z
      .array(IdSchema)
      .max(40, 'At most 40 seats at once')
      .refine((ids) => new Set(ids.map((i) => i.toLowerCase())).size === ids.length, {
        message: 'Each seat once',
      }),
    /** Each seat's ticket type; a seat not listed is sold as the default type. */
    tickets: z
      .array(z.object({ seatId: IdSchema, ticketTypeId: IdSchema }))
      .max(40)
      .optional(),
    paymentMethod: PaymentMethodSchema,
    /** Gift cards the customer pays with first (DESIGN §7.3); the rest is paid by `paymentMethod`. */
    redeem: RedeemSchema.optional(),
    /** The customer, when they want their tickets by email or in their account. */
    customerEmail: z.email({ message: 'Enter a valid email address' }).max(254).optional(),
    customerName: OneLineTextSchema('Name', 100).optional(),
    /**
     * A key the client draws once per sale: the same sale sent again (a double click, a retry after a timeout) answers
     * with the order it made instead of selling twice.
     */
    requestId: IdSchema.optional(),
    /** Gift cards sold (DESIGN §7.3): printed at the counter, and emailed to `recipientEmail` when given. */
    giftCards: GiftCardPurchasesSchema.optional(),
    /** Food and drink (DESIGN §7.2), with or without tickets: handed over at the counter with the sale. */
    products: z.array(ProductOrderSchema).max(30, 'Too many items').optional(),
  })
  .superRefine((body, ctx) => {
    if (body.seatIds.length === 0 && !body.giftCards?.length && !body.products?.length)
      ctx.addIssue({ code: 'custom', path: ['seatIds'], message: 'Choose a seat' });
    if (body.seatIds.length > 0 && !body.showtimeId)
      ctx.addIssue({ code: 'custom', path: ['showtimeId'], message: 'Choose a showtime' });
  });
export type CounterSaleBody = z.infer<typeof CounterSaleBodySchema>;

/**
 * `POST /api/admin/box-office/quote` (the counter sale's body): what the sale would charge, priced as the sale is, with
 * the counter's booking fee as lines of their own and the tax (DESIGN §7.4). Nothing is written or held.
 */
export const CounterQuoteSchema = z.object({
  totalCents: z.number().int(),
  taxCents: z.number().int(),
  taxMode: z.enum(TAX_MODES),
  /** The booking fees: per ticket (`quantity` tickets) or per order. */
  fees: z.array(
    z.object({ per: z.enum(['TICKET', 'ORDER']), quantity: z.number().int(), totalCents: z.number().int() }),
  ),
  currency: z.string(),
});
export type CounterQuote = z.infer<typeof CounterQuoteSchema>;

/** A box office refusal, naming the seats or tickets at fault where there are some. */
export const BoxOfficeErrorSchema = ErrorSchema.extend({
  seatIds: z.array(z.string()).optional(),
  bookingIds: z.array(z.string().nullable()).optional(),
  /** 409 `sold_out` / `product_unavailable`: the products at fault. */
  productIds: z.array(z.string()).optional(),
});

/**
 * A guest order (a counter sale to an email no verified account has): `GET /api/guest-order?token=…`, the token
 * its emailed link carries, shows it and its tickets without signing in (`/guest-order?token=…` in the web app).
 */
export const GuestOrderQuerySchema = z.object({
  token: z.string().min(1, 'The order link is incomplete').max(200),
});
export type GuestOrderQuery = z.input<typeof GuestOrderQuerySchema>;

export const GuestOrderSchema = z.object({
  order: OrderSchema,
  /** Its paid tickets (the QR codes the door scans); none once refunded. */
  tickets: z.array(TicketSchema),
  /** Whether the order already belongs to an account (its email was verified): then it is under that My Tickets. */
  claimed: z.boolean(),
});
export type GuestOrder = z.infer<typeof GuestOrderSchema>;
