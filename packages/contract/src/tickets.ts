import { z } from 'zod';
import { SeatTypeSchema } from './halls.ts';
import { IdSchema } from './common.ts';
import { ErrorSchema } from './errors.ts';

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
});
export type Ticket = z.infer<typeof TicketSchema>;
export const TicketsResponseSchema = z.object({ tickets: z.array(TicketSchema) });

export const CheckoutBodySchema = z.object({
  bookingIds: z.array(IdSchema).min(1, 'No bookings given').max(100, 'Too many bookings'),
  /** The ticket type of each seat (DESIGN §6.3); a booking not listed is sold as the default type. */
  tickets: z
    .array(z.object({ bookingId: IdSchema, ticketTypeId: IdSchema }))
    .max(100)
    .refine((t) => new Set(t.map((x) => x.bookingId.toLowerCase())).size === t.length, {
      message: 'Each booking may be listed once',
    })
    .optional(),
  promoCode: z.string().trim().min(1).max(40).optional(),
});
export type CheckoutBody = z.infer<typeof CheckoutBodySchema>;
/** A refused checkout (404 unknown, 409 `hold_expired` / `already_paid`) names the bookings at fault. */
export const CheckoutErrorSchema = ErrorSchema.extend({ bookingIds: z.array(z.string()).optional() });
export const CheckoutResponseSchema = z.object({
  sessionId: z.string(),
  url: z.string(),
  /** The order this checkout is (DESIGN §6.3). */
  orderRef: z.string().optional(),
  totalCents: z.number().int().optional(),
  discountCents: z.number().int().optional(),
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

export const ScanBodySchema = z.object({ bookingId: IdSchema });
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
});
export type ScanResponse = z.infer<typeof ScanResponseSchema>;
