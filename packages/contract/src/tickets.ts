import { z } from 'zod';
import { SeatTypeSchema } from './halls.ts';
import { DisplayTextSchema, IdSchema } from './common.ts';
import { ErrorSchema } from './errors.ts';
import { FulfilmentSchema, ProductOrderSchema } from './concessions.ts';
import { GiftCardPurchasesSchema, GiftCardUseSchema, RedeemSchema } from './gift-cards.ts';

/** A seat as tickets, lists and the door show it: its row and number, and its row's label and type. */
export const SeatPlaceSchema = z.object({
  row: z.number().int(),
  number: z.number().int(),
  rowLabel: z.string().optional(),
  type: SeatTypeSchema.optional(),
});

export const TicketSchema = z.object({
  bookingId: z.string(),
  movie: z.object({
    title: z.string(),
    rating: z.string().nullable(),
    durationMinutes: z.number().nullable(),
  }),
  auditorium: z.string(),
  seat: SeatPlaceSchema,
  startsAt: z.string(),
  checkedInAt: z.string().nullable(),
  /** Paid through the built-in test checkout: no money moved (DESIGN §6.1). */
  testMode: z.boolean().optional(),
  /** The order the ticket was bought in, and the type it was sold as. */
  orderRef: z.string().nullable().optional(),
  ticketType: z.string().nullable().optional(),
  /** The showtime's attributes (`IMAX`, `CAPTIONED`, …). */
  attributes: z.array(z.string()).optional(),
});
export type Ticket = z.infer<typeof TicketSchema>;
export const TicketsResponseSchema = z.object({ tickets: z.array(TicketSchema) });

export const CheckoutBodySchema = z
  .object({
    /** The holds to pay for; empty when only food and drink or gift cards are bought (DESIGN §7.2, §7.3). */
    bookingIds: z.array(IdSchema).max(100, 'Too many bookings'),
    /** The ticket type of each seat (DESIGN §6.3); a booking not listed is sold as the default type. */
    tickets: z
      .array(z.object({ bookingId: IdSchema, ticketTypeId: IdSchema }))
      .max(100)
      .refine((t) => new Set(t.map((x) => x.bookingId.toLowerCase())).size === t.length, {
        message: 'Each booking may be listed once',
      })
      .optional(),
    promoCode: z.string().trim().min(1).max(40).optional(),
    /** Food and drink (DESIGN §7.2): each product, how many, and its option choices. */
    products: z.array(ProductOrderSchema).max(30, 'Too many items').optional(),
    /** How the food and drink reaches the customer; collected at the counter when not given. */
    fulfilment: FulfilmentSchema.optional(),
    /** Gift cards to pay with, in this order, each partly or wholly (DESIGN §7.3); the rest goes to the provider. */
    redeem: RedeemSchema.optional(),
    /** Gift cards to buy (DESIGN §7.3), emailed to their recipients once paid. */
    giftCards: GiftCardPurchasesSchema.optional(),
  })
  .refine((b) => b.bookingIds.length > 0 || (b.products?.length ?? 0) > 0 || (b.giftCards?.length ?? 0) > 0, {
    message: 'No bookings given',
    path: ['bookingIds'],
  });
export type CheckoutBody = z.infer<typeof CheckoutBodySchema>;
/** A refused checkout (404 unknown, 409 `hold_expired` / `already_paid`) names the bookings at fault. */
export const CheckoutErrorSchema = ErrorSchema.extend({
  bookingIds: z.array(z.string()).optional(),
  /** A 409 `sold_out` / `product_unavailable` names the products at fault. */
  productIds: z.array(z.string()).optional(),
});
export const CheckoutResponseSchema = z.object({
  sessionId: z.string(),
  url: z.string(),
  /** The order this checkout is (DESIGN §6.3). */
  orderRef: z.string().optional(),
  totalCents: z.number().int().optional(),
  discountCents: z.number().int().optional(),
  /** What the gift cards took, and what is left to pay by card (0: paid wholly by gift cards). */
  giftCards: z.array(GiftCardUseSchema).optional(),
  dueCents: z.number().int().optional(),
});
export type CheckoutResponse = z.infer<typeof CheckoutResponseSchema>;

export const LookupStatusSchema = z.enum(['paid', 'pending', 'refunded', 'expired', 'cancelled']);
export const LookupQuerySchema = z.object({ session_id: z.string().min(1).max(300) });
export const LookupResponseSchema = z.object({
  sessionId: z.string(),
  status: LookupStatusSchema,
  tickets: z.array(TicketSchema),
  /** Seats whose payment was refunded because someone else had them by the time the payment arrived. */
  refundedSeats: z
    .array(z.object({ row: z.number().int(), number: z.number().int(), rowLabel: z.string().optional() }))
    .optional(),
  /** The session went through the built-in test checkout: no money moved. */
  testMode: z.boolean().optional(),
  orderRef: z.string().optional(),
});
export type LookupResponse = z.infer<typeof LookupResponseSchema>;

export const BookedSeatSchema = z.object({
  bookingId: z.string(),
  user: z.object({ email: z.string(), name: z.string() }),
  seat: SeatPlaceSchema,
  movie: z.string(),
  startsAt: z.string(),
  auditorium: z.string(),
  checkedInAt: z.string().nullable(),
  /** The showtime's attributes (`IMAX`, `CAPTIONED`, …). */
  attributes: z.array(z.string()).optional(),
  /** The youngest age the film's certificate admits, when it has an age rule: the door checks ID ("ID check 18+"). */
  minAge: z.number().int().nullable().optional(),
});
export type BookedSeat = z.infer<typeof BookedSeatSchema>;

export const ShowtimeTicketSchema = z.object({
  bookingId: z.string(),
  seat: SeatPlaceSchema,
  movie: z.string(),
  startsAt: z.string(),
  auditorium: z.string(),
});
export type ShowtimeTicket = z.infer<typeof ShowtimeTicketSchema>;

/** A name for the scanning device, as staff type it ("Door 1"); recorded on each check-in. */
export const DeviceLabelSchema = DisplayTextSchema('Device label', 60);

export const ScanBodySchema = z.object({
  bookingId: IdSchema,
  /**
   * The showtime being admitted (the web scanner always sends it); without it a ticket of any showtime is admitted,
   * still only within its own entry window.
   */
  showtimeId: IdSchema.optional(),
  /** Admit outside the entry window (too_early / too_late); audited. */
  force: z.boolean().optional(),
  deviceLabel: DeviceLabelSchema.optional(),
});
export type ScanBody = z.infer<typeof ScanBodySchema>;

/** A showtime's door counts: paid tickets, checked in, still to come. */
export const DoorCountsSchema = z.object({
  sold: z.number().int(),
  checkedIn: z.number().int(),
  toCome: z.number().int(),
});
export type DoorCounts = z.infer<typeof DoorCountsSchema>;

export const ScanResponseSchema = z.object({
  ok: z.literal(true),
  alreadyCheckedIn: z.boolean(),
  user: z.object({ email: z.string(), name: z.string() }),
  movie: z.string(),
  startsAt: z.string(),
  seat: SeatPlaceSchema,
  auditorium: z.string(),
  checkedInAt: z.string().optional(),
  /** A ticket paid through the test checkout: the scanner shows TEST in amber, never a green VALID. */
  testMode: z.boolean().optional(),
  /** Who checked the ticket in (null when the check-in predates the door's records), and on which device. */
  checkedInBy: z.object({ name: z.string() }).nullable().optional(),
  deviceLabel: z.string().nullable().optional(),
  /** Admitted outside the entry window by a staff override. */
  forced: z.boolean().optional(),
  /** The admitted showtime's counts after this scan (when the scan named the showtime). */
  counts: DoorCountsSchema.optional(),
});
export type ScanResponse = z.infer<typeof ScanResponseSchema>;

/** A refused scan: wrong_showtime names the ticket's own showtime; too_early / too_late the entry window. */
export const ScanErrorSchema = ErrorSchema.extend({
  ticket: z.object({ movie: z.string(), startsAt: z.string(), auditorium: z.string() }).optional(),
  entryOpensAt: z.string().optional(),
  entryClosesAt: z.string().optional(),
});
export type ScanError = z.infer<typeof ScanErrorSchema>;

/** A showtime as the door sees it: its entry window (ENTRY_OPENS_MINUTES before the start until the end) and counts. */
export const DoorShowtimeSchema = z.object({
  id: z.string(),
  movie: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  auditorium: z.string(),
  entryOpensAt: z.string(),
  entryOpen: z.boolean(),
  counts: DoorCountsSchema,
  /** The youngest age the film's certificate admits, when it has an age rule: the door checks ID ("ID check 18+"). */
  minAge: z.number().int().nullable().optional(),
});
export type DoorShowtime = z.infer<typeof DoorShowtimeSchema>;

export const DoorShowtimesResponseSchema = z.object({ showtimes: z.array(DoorShowtimeSchema) });
export type DoorShowtimesResponse = z.infer<typeof DoorShowtimesResponseSchema>;

/** One ticket of the admitted showtime, kept on the scanning device to validate without a network. */
export const DoorTicketSchema = z.object({
  bookingId: z.string(),
  status: z.enum(['CONFIRMED', 'CANCELLED', 'REFUNDED']),
  name: z.string(),
  seat: SeatPlaceSchema,
  checkedInAt: z.string().nullable(),
  checkedInBy: z.string().nullable(),
  testMode: z.boolean(),
});
export type DoorTicket = z.infer<typeof DoorTicketSchema>;

export const DoorListResponseSchema = z.object({
  showtime: DoorShowtimeSchema,
  tickets: z.array(DoorTicketSchema),
  /** The server's clock when the list was read, so a device can tell how old its copy is. */
  at: z.string(),
});
export type DoorListResponse = z.infer<typeof DoorListResponseSchema>;

export const ScanUndoBodySchema = z.object({ bookingId: IdSchema });
export const ScanUndoResponseSchema = z.object({
  ok: z.literal(true),
  bookingId: z.string(),
  counts: DoorCountsSchema,
});
export type ScanUndoResponse = z.infer<typeof ScanUndoResponseSchema>;

/** Check-ins a scanner made without a network, sent when it is back; sending the same batch again changes nothing. */
export const ScanSyncBodySchema = z.object({
  showtimeId: IdSchema,
  deviceLabel: DeviceLabelSchema,
  checkIns: z
    .array(
      z.object({
        bookingId: IdSchema,
        /** When the device admitted the ticket (believed within DOOR_CLOCK_TOLERANCE_MINUTES only). */
        scannedAt: z.iso.datetime({ offset: true, message: 'Invalid time' }),
        force: z.boolean().optional(),
      }),
    )
    .min(1, 'Nothing to send')
    .max(500, 'At most 500 check-ins at once'),
});
export type ScanSyncBody = z.infer<typeof ScanSyncBodySchema>;

export const ScanSyncResultSchema = z.object({
  bookingId: z.string(),
  /** checked_in: this device's check-in stands; conflict: someone else's came first; refused: not admissible. */
  result: z.enum(['checked_in', 'conflict', 'refused']),
  code: z.string().optional(),
  error: z.string().optional(),
  checkedInAt: z.string().optional(),
  checkedInBy: z.string().nullable().optional(),
  deviceLabel: z.string().nullable().optional(),
});
export type ScanSyncResult = z.infer<typeof ScanSyncResultSchema>;

export const ScanSyncResponseSchema = z.object({
  results: z.array(ScanSyncResultSchema),
  counts: DoorCountsSchema,
});
export type ScanSyncResponse = z.infer<typeof ScanSyncResponseSchema>;
