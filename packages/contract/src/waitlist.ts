import { z } from 'zod';
import { MAX_SEATS_PER_HOLD } from './constants.ts';
import { SeatTypeSchema } from './halls.ts';

/** Waiting lists a customer may be on at once (across showtimes): a bound, so nobody queues for the whole programme. */
export const MAX_WAITLIST_ENTRIES = 5;

/**
 * `POST /api/showtimes/{id}/waitlist` (DESIGN §7.6): `count` seats, `together` (default true) and an optional seat
 * type (WHEELCHAIR: a wheelchair space with companion seats). `seats` is read as `count` and `wheelchair: true` as
 * `type: "WHEELCHAIR"`, for clients that name them so.
 */
export const WaitlistJoinBodySchema = z.preprocess(
  (raw) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
    const { seats, wheelchair, ...rest } = raw as Record<string, unknown>;
    return {
      ...(seats !== undefined && { count: seats }),
      ...(wheelchair === true && { type: 'WHEELCHAIR' }),
      ...rest,
    };
  },
  z.object({
    count: z.number().int().min(1).max(MAX_SEATS_PER_HOLD, `At most ${MAX_SEATS_PER_HOLD} seats`),
    together: z.boolean().default(true),
    type: SeatTypeSchema.exclude(['COMPANION']).optional(),
  }),
);
export type WaitlistJoinBody = z.infer<typeof WaitlistJoinBodySchema>;

/** An offer: seats held in the customer's name until `expiresAt`, to pay for as any hold or to decline. */
export const WaitlistOfferSchema = z.object({
  id: z.string(),
  status: z.enum(['open', 'taken', 'passed', 'declined']),
  seats: z.array(
    z.object({
      id: z.string(),
      bookingId: z.string(),
      row: z.number().int(),
      number: z.number().int(),
      rowLabel: z.string(),
    }),
  ),
  expiresAt: z.string(),
  createdAt: z.string(),
});
export type WaitlistOffer = z.infer<typeof WaitlistOfferSchema>;

/**
 * One place on a waiting list. waiting: in line (`position` 1 is next); offered: an open offer; taken: paid;
 * passed: an offer ran out or was declined; left: the customer left; ended: the showtime started.
 */
export const WaitlistEntrySchema = z.object({
  id: z.string(),
  showtime: z.object({
    id: z.string(),
    startsAt: z.string(),
    auditorium: z.string(),
    movie: z.object({ id: z.string(), title: z.string() }),
  }),
  count: z.number().int(),
  together: z.boolean(),
  type: SeatTypeSchema.nullable(),
  status: z.enum(['waiting', 'offered', 'taken', 'passed', 'left', 'ended']),
  /** In line: how many are ahead, plus one. Null once the entry is not waiting. */
  position: z.number().int().nullable(),
  joinedAt: z.string(),
  offer: WaitlistOfferSchema.nullable(),
});
export type WaitlistEntry = z.infer<typeof WaitlistEntrySchema>;

export const MyWaitlistResponseSchema = z.object({ entries: z.array(WaitlistEntrySchema) });
export type MyWaitlistResponse = z.infer<typeof MyWaitlistResponseSchema>;

/** `DELETE /api/showtimes/{id}/waitlist`: leaves the list; an open offer is declined and its seats pass on. */
export const WaitlistLeaveResponseSchema = z.object({ ok: z.literal(true), left: z.boolean() });

/** Staff: a showtime's list in join order (emails for the door team) and the offers made. */
export const StaffWaitlistSchema = z.object({
  showtimeId: z.string(),
  waiting: z.number().int(),
  entries: z.array(
    z.object({
      id: z.string(),
      user: z.object({ name: z.string(), email: z.string() }),
      count: z.number().int(),
      together: z.boolean(),
      type: SeatTypeSchema.nullable(),
      status: WaitlistEntrySchema.shape.status,
      position: z.number().int().nullable(),
      joinedAt: z.string(),
    }),
  ),
  offers: z.array(
    WaitlistOfferSchema.extend({
      entryId: z.string(),
      user: z.object({ name: z.string(), email: z.string() }),
    }),
  ),
});
export type StaffWaitlist = z.infer<typeof StaffWaitlistSchema>;

/** Staff: waiting customers per showtime (the counts Manage Showtimes shows). */
export const WaitlistCountsSchema = z.object({
  counts: z.array(
    z.object({ showtimeId: z.string(), waiting: z.number().int(), openOffers: z.number().int() }),
  ),
});
export type WaitlistCounts = z.infer<typeof WaitlistCountsSchema>;
