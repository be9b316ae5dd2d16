import { z } from 'zod';
import { IdSchema } from './common.ts';
import { MAX_SEATS_PER_HOLD, SEAT_GAP_RULES } from './constants.ts';
import { ErrorSchema } from './errors.ts';
import { SeatTypeSchema } from './halls.ts';

/** BLOCKED: a house or broken seat, never sold online (old clients only ever choose AVAILABLE seats). */
export const SeatStatusSchema = z.enum(['AVAILABLE', 'HELD', 'CONFIRMED', 'BLOCKED']);
export type SeatStatus = z.infer<typeof SeatStatusSchema>;

export const SeatMapSeatSchema = z.object({
  id: z.string(),
  row: z.number().int(),
  number: z.number().int(),
  status: SeatStatusSchema,
  /** The seat's type, its grid column (gaps counted, from 0) and its row's label. */
  type: SeatTypeSchema.optional(),
  col: z.number().int().optional(),
  rowLabel: z.string().optional(),
  /** Sofa seats: the pair they are sold in. */
  pairId: z.string().optional(),
  heldByMe: z.boolean().optional(),
  /** For the caller's own live holds: the booking id, so a reload keeps the hold usable. */
  bookingId: z.string().optional(),
  expiresAt: z.string().optional(),
});
export type SeatMapSeat = z.infer<typeof SeatMapSeatSchema>;

export const SeatMapSchema = z.object({
  showtime: z.object({
    id: z.string(),
    startsAt: z.string(),
    priceCents: z.number().int(),
    auditoriumId: z.string(),
    auditorium: z.string(),
    /** Format, language, accessibility, audience (`IMAX`, `CAPTIONED`, …). */
    attributes: z.array(z.string()).optional(),
    movie: z.object({ id: z.string(), title: z.string() }),
    /**
     * When its wheelchair spaces and companion seats sell as standard seats (ACCESSIBLE_RELEASE_MINUTES before the
     * start, or earlier when staff released them); before then, also once no other seat is free
     * (`accessibleSeatsReleased`).
     */
    accessibleReleaseAt: z.string().optional(),
  }),
  seats: z.array(SeatMapSeatSchema),
  /** The hall's grid: its width in columns (seats and gaps) and its rows, front to back. */
  layout: z.object({ cols: z.number().int(), rows: z.array(z.object({ label: z.string() })) }).optional(),
  /** The selection rules in force (DESIGN §6.2). */
  rules: z.object({ singleSeatGap: z.enum(SEAT_GAP_RULES) }).optional(),
});
export type SeatMap = z.infer<typeof SeatMapSchema>;

export const HoldBodySchema = z.object({
  seatIds: z
    .array(IdSchema)
    .min(1, 'Select at least one seat')
    .max(MAX_SEATS_PER_HOLD, `At most ${MAX_SEATS_PER_HOLD} seats per hold`)
    .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, {
      message: 'Each seat may be listed only once',
    }),
});
export type HoldBody = z.infer<typeof HoldBodySchema>;

/**
 * 201 on success. Errors: 400 (bad body, a duplicate, or seats of another hall: `{error, code: 'bad_request',
 * seatIds}` naming them), 401, 404 unknown showtime, 409 `showtime_started`, 409 `hold_limit` `{scope, held?, max?}`
 * (more than MAX_LIVE_HOLDS_PER_SHOWTIME in a showtime, MAX_HELD_SEATS across showtimes, or the address's limit),
 * 409 `seat_unavailable` `{error, code, seatIds}` naming the seats taken.
 */
/** A refused hold: the seats that were taken (`seat_unavailable`), or which limit was reached (`hold_limit`). */
export const HoldErrorSchema = ErrorSchema.extend({
  seatIds: z.array(z.string()).optional(),
  /** hold_limit: per showtime, per customer across showtimes (MAX_HELD_SEATS) or per client address. */
  scope: z.enum(['showtime', 'customer', 'address']).optional(),
  /** single_seat_gap: the nearest selection that leaves no seat alone. */
  alternative: z.array(z.string()).optional(),
  /** hold_limit (showtime and customer): the live held seats counted, and the most allowed. */
  held: z.number().int().optional(),
  max: z.number().int().optional(),
});
export type HoldError = z.infer<typeof HoldErrorSchema>;

/** `POST /api/showtimes/{id}/best-available` (DESIGN §6.2). */
export const BestAvailableBodySchema = z.object({
  count: z.number().int().min(1).max(MAX_SEATS_PER_HOLD, `At most ${MAX_SEATS_PER_HOLD} seats`),
  /** Only seats of this type; WHEELCHAIR means spaces with their companion seats. */
  type: SeatTypeSchema.exclude(['COMPANION']).optional(),
  /** Hold the seats found, in the same call. */
  hold: z.boolean().optional(),
});
export type BestAvailableBody = z.infer<typeof BestAvailableBodySchema>;

export const HoldResponseSchema = z.object({ bookingIds: z.array(z.string()), expiresAt: z.string() });
export type HoldResponse = z.infer<typeof HoldResponseSchema>;

export const BestAvailableResponseSchema = z.object({
  seatIds: z.array(z.string()),
  /** With `hold: true`: the hold made. */
  hold: HoldResponseSchema.optional(),
});
export type BestAvailableResponse = z.infer<typeof BestAvailableResponseSchema>;

export const CancelHoldsBodySchema = z.object({
  bookingIds: z.array(IdSchema).min(1, 'No bookings given').max(100, 'Too many bookings'),
});
export type CancelHoldsBody = z.infer<typeof CancelHoldsBodySchema>;

export const CancelHoldsResponseSchema = z.object({ ok: z.literal(true), cancelled: z.number().int() });

/** `POST /api/showtimes/bookings/more-time`: "More time" for the caller's live holds, once in a hold's life. */
export const MoreTimeBodySchema = CancelHoldsBodySchema;
export const MoreTimeResponseSchema = z.object({
  /** The holds' new expiry (the earliest of them). */
  expiresAt: z.string(),
  extended: z.number().int(),
});
export type MoreTimeResponse = z.infer<typeof MoreTimeResponseSchema>;

/** Socket.IO events. */
export const JoinShowtimeSchema = IdSchema;
/** The acknowledgement of `join_showtime`: no room is joined unless ok. */
export const JoinShowtimeAckSchema = z.union([
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type JoinShowtimeAck = z.infer<typeof JoinShowtimeAckSchema>;
export const SeatsUpdateSchema = z.object({
  showtimeId: z.string(),
  seats: z.array(z.object({ id: z.string(), status: SeatStatusSchema })),
});
export type SeatsUpdate = z.infer<typeof SeatsUpdateSchema>;
