import { z } from 'zod';
import { OrderConcessionsSchema, ProductLineSchema } from './concessions.ts';
import { ShowtimeAttributeSchema } from './catalogue.ts';
import { DisplayTextSchema, IdSchema, OneLineTextSchema } from './common.ts';
import { MAX_AMOUNT_OFF_CENTS, MAX_PRICE_CENTS, TAX_MODES } from './constants.ts';
import { ErrorSchema } from './errors.ts';
import { GiftCardUseSchema, OrderGiftCardSchema } from './gift-cards.ts';
import { SeatTypeSchema } from './halls.ts';
import { SeatPlaceSchema } from './tickets.ts';

// ---------------------------------------------------------------------------------------------------------------
// Ticket types and price cards (DESIGN §6.3)

export const TicketTypeSchema = z.object({
  id: z.string(),
  name: z.string(),
  active: z.boolean(),
  position: z.number().int(),
  /** Certificates of RATING_SYSTEM this type is not sold for (DESIGN §7.5: no Child ticket for an R film). */
  excludedRatings: z.array(z.string()).optional(),
});
export type TicketType = z.infer<typeof TicketTypeSchema>;

/** Certificates of the cinema's RATING_SYSTEM (the server checks them against it: `["R", "NC-17"]`). */
const ExcludedRatingsSchema = z.array(OneLineTextSchema('Excluded rating', 20)).max(20);

export const CreateTicketTypeBodySchema = z.object({
  name: DisplayTextSchema('Name', 40),
  excludedRatings: ExcludedRatingsSchema.optional(),
});
export type CreateTicketTypeBody = z.infer<typeof CreateTicketTypeBodySchema>;
export const UpdateTicketTypeBodySchema = z.object({
  name: DisplayTextSchema('Name', 40).optional(),
  active: z.boolean().optional(),
  position: z.number().int().min(0).max(1000).optional(),
  excludedRatings: ExcludedRatingsSchema.optional(),
});
export type UpdateTicketTypeBody = z.infer<typeof UpdateTicketTypeBodySchema>;

/** "HH:MM" in the cinema's time zone, 00:00 to 24:00. */
export const DayTimeSchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'Use HH:MM, from 00:00 to 24:00');

const PriceSchema = z.object({
  ticketTypeId: IdSchema,
  seatType: SeatTypeSchema,
  priceCents: z.number().int('Price must be whole cents').min(0).max(MAX_PRICE_CENTS, 'Price is too high'),
});

export const CreatePriceCardBodySchema = z
  .object({
    name: DisplayTextSchema('Name', 60),
    /** ISO weekdays: Monday 1 … Sunday 7. */
    weekdays: z
      .array(z.number().int().min(1).max(7))
      .min(1, 'Choose at least one day')
      .max(7)
      .refine((d) => new Set(d).size === d.length, { message: 'Each day once' }),
    from: DayTimeSchema,
    to: DayTimeSchema,
    prices: z
      .array(PriceSchema)
      .min(1, 'A price card needs a price')
      .max(200)
      .refine(
        (p) => new Set(p.map((x) => `${x.ticketTypeId.toLowerCase()}|${x.seatType}`)).size === p.length,
        {
          message: 'One price for each ticket type and seat type',
        },
      ),
    /** A card for showtimes with this attribute only (3D, IMAX), chosen before any card without one. */
    attribute: ShowtimeAttributeSchema.nullable().optional(),
  })
  .refine((c) => c.from < c.to, { message: 'The window must end after it starts', path: ['to'] });
export type CreatePriceCardBody = z.infer<typeof CreatePriceCardBodySchema>;

export const PriceCardSchema = z.object({
  id: z.string(),
  name: z.string(),
  weekdays: z.array(z.number().int()),
  from: z.string(),
  to: z.string(),
  prices: z.array(
    z.object({ ticketTypeId: z.string(), seatType: SeatTypeSchema, priceCents: z.number().int() }),
  ),
  attribute: z.string().nullable().optional(),
});
export type PriceCard = z.infer<typeof PriceCardSchema>;

/** `GET /api/showtimes/{id}/prices`: what each ticket type costs on each seat type for this showtime. */
export const ShowtimePricesSchema = z.object({
  showtimeId: z.string(),
  currency: z.string(),
  /** The card in force (chosen for the showtime, or valid at its start); null: every seat at the showtime's price. */
  priceCard: z.object({ id: z.string(), name: z.string() }).nullable(),
  ticketTypes: z.array(z.object({ id: z.string(), name: z.string() })),
  defaultTicketTypeId: z.string().nullable(),
  prices: z.array(
    z.object({ ticketTypeId: z.string(), seatType: SeatTypeSchema, priceCents: z.number().int() }),
  ),
  /**
   * The film's age rule when its certificate has one (`{rating: "R", minAge: 17}`); the ticket types above leave
   * out those that exclude its certificate.
   */
  ageRule: z.object({ rating: z.string(), minAge: z.number().int() }).nullable().optional(),
});
export type ShowtimePrices = z.infer<typeof ShowtimePricesSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Promo codes

export const CreatePromoCodeBodySchema = z
  .object({
    code: z
      .string()
      .trim()
      .min(3, 'At least 3 characters')
      .max(40)
      .regex(/^[A-Za-z0-9_-]+$/, 'Letters, digits, - and _ only'),
    percentOff: z.number().int().min(1).max(100).optional(),
    amountOffCents: z.number().int().min(1).max(MAX_AMOUNT_OFF_CENTS).optional(),
    maxUses: z.number().int().min(1).max(1_000_000).optional(),
    maxUsesPerCustomer: z.number().int().min(1).max(1000).optional(),
    validFrom: z.iso.datetime({ offset: true }).optional(),
    validTo: z.iso.datetime({ offset: true }).optional(),
    movieId: IdSchema.optional(),
    showtimeId: IdSchema.optional(),
  })
  .refine((p) => (p.percentOff === undefined) !== (p.amountOffCents === undefined), {
    message: 'Give either percentOff or amountOffCents',
    path: ['percentOff'],
  })
  .refine((p) => !p.validFrom || !p.validTo || new Date(p.validFrom) < new Date(p.validTo), {
    message: 'validTo must come after validFrom',
    path: ['validTo'],
  })
  .refine((p) => !(p.movieId && p.showtimeId), { message: 'Scope it to a movie or a showtime, not both' });
export type CreatePromoCodeBody = z.infer<typeof CreatePromoCodeBodySchema>;

export const PromoCodeSchema = z.object({
  id: z.string(),
  code: z.string(),
  percentOff: z.number().int().nullable(),
  amountOffCents: z.number().int().nullable(),
  maxUses: z.number().int().nullable(),
  maxUsesPerCustomer: z.number().int().nullable(),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  movieId: z.string().nullable(),
  showtimeId: z.string().nullable(),
  uses: z.number().int(),
  active: z.boolean(),
});
export type PromoCode = z.infer<typeof PromoCodeSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Quotes and orders

/** One seat of an order: what it is, what it costs, what the code took off, and what became of it. */
export const OrderLineSchema = z.object({
  bookingId: z.string().nullable(),
  movie: z.string(),
  startsAt: z.string(),
  auditorium: z.string(),
  seat: SeatPlaceSchema,
  ticketType: z.string(),
  listPriceCents: z.number().int(),
  discountCents: z.number().int(),
  priceCents: z.number().int(),
  /** pending: not paid yet; confirmed: a ticket; refunded: paid and given back. */
  status: z.enum(['pending', 'confirmed', 'refunded', 'released']),
  /** What the line sells (DESIGN §7.1): a seat (`TICKET`), food and drink, a gift card or a fee. */
  kind: z.enum(['TICKET', 'PRODUCT', 'GIFT_CARD', 'FEE']),
  quantity: z.number().int(),
  /** The price of one before any discount; the tax rate in basis points (20% = 2000) and the tax in priceCents. */
  unitPriceCents: z.number().int(),
  taxRateBp: z.number().int(),
  taxCents: z.number().int(),
  /** DESIGN §7.8's names: what the line is, its unit price, its tax rate in percent (7.5) and what it costs. */
  name: z.string(),
  unitCents: z.number().int(),
  taxRate: z.number(),
  totalCents: z.number().int(),
  /** A `GIFT_CARD` line: the card it sold (its code once paid), who it is for and the message. */
  giftCard: OrderGiftCardSchema.optional(),
});
export type OrderLine = z.infer<typeof OrderLineSchema>;

/** `POST /api/pay/quote`: the checkout's prices without starting it (same body as the checkout). */
export const QuoteResponseSchema = z.object({
  lines: z.array(OrderLineSchema),
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  totalCents: z.number().int(),
  currency: z.string(),
  /** The promo code asked for: applied, or why not. */
  promo: z.object({ code: z.string(), applied: z.boolean(), reason: z.string().optional() }).optional(),
  /** Food and drink (DESIGN §7.2), priced from the menu; `totalCents` includes them. */
  products: z.array(ProductLineSchema).optional(),
  /** The gift cards asked for and what each would take (DESIGN §7.3), and what is left to pay by card. */
  giftCards: z.array(GiftCardUseSchema).optional(),
  dueCents: z.number().int().optional(),
  /** The tax in totalCents (DESIGN §7.4): part of the prices (`inclusive`) or added to them (`exclusive`). */
  taxCents: z.number().int(),
  taxMode: z.enum(TAX_MODES),
});
export type Quote = z.infer<typeof QuoteResponseSchema>;

export const OrderStatusSchema = z.enum([
  'pending',
  'paid',
  'partially_refunded',
  'refunded',
  'expired',
  'cancelled',
]);

export const OrderSchema = z.object({
  ref: z.string(),
  status: OrderStatusSchema,
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  lines: z.array(OrderLineSchema),
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  totalCents: z.number().int(),
  refundedCents: z.number().int(),
  /** Every refund is a line of the order, never a silent change. */
  refunds: z.array(z.object({ amountCents: z.number().int(), status: z.string(), createdAt: z.string() })),
  promoCode: z.string().nullable(),
  currency: z.string(),
  testMode: z.boolean(),
  /** How it was paid: each payment's method, amount and what was refunded of it. */
  payments: z.array(
    z.object({
      method: z.enum(['CARD', 'GIFT_CARD', 'CASH', 'CARD_TERMINAL', 'FREE']),
      amountCents: z.number().int(),
      refundedCents: z.number().int(),
    }),
  ),
  /** Food and drink (DESIGN §7.2): the items, and how and where they reach the customer. */
  products: z.array(ProductLineSchema).optional(),
  concessions: OrderConcessionsSchema.nullable().optional(),
  /** The tax in totalCents, every line's as it was charged (DESIGN §7.4, §7.8), and how prices were taxed then. */
  taxCents: z.number().int(),
  taxMode: z.enum(TAX_MODES),
});
export type Order = z.infer<typeof OrderSchema>;

export const OrdersResponseSchema = z.object({
  orders: z.array(OrderSchema),
  nextPage: z.number().int().nullable(),
});
export const OrdersQuerySchema = z.object({ page: z.coerce.number().int().min(1).max(1000).default(1) });
export const OrderRefParamsSchema = z.object({ ref: z.string().min(3).max(20) });

/** 409 `promo_unavailable` / `ticket_type_unavailable` and the like, with a reason a customer can act on. */
export const PricingErrorSchema = ErrorSchema.extend({
  bookingIds: z.array(z.string()).optional(),
  productIds: z.array(z.string()).optional(),
});
