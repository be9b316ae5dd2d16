import { z } from 'zod';
import { DisplayTextSchema, IdSchema } from './common.ts';
import { MAX_PRICE_CENTS } from './constants.ts';

export const MovieSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  durationMinutes: z.number().int().nullable(),
  rating: z.string().nullable(),
  posterUrl: z.string().nullable(),
  /** The poster at each stored width, for `<img srcset>` (`/api/posters/{id}?w=160 160w, …`); null without one. */
  posterSrcSet: z.string().nullable().optional(),
});
export type Movie = z.infer<typeof MovieSchema>;

/** Text fields of the multipart Add Movie form (the poster travels as the file part `poster`). */
export const MovieFieldsSchema = z.object({
  title: DisplayTextSchema('Title', 200),
  description: z.string().trim().max(5000, 'Description is too long').optional(),
  durationMinutes: z.coerce
    .number({ message: 'Duration must be a number of minutes' })
    .int('Duration must be whole minutes')
    .min(1, 'Duration must be at least 1 minute')
    .max(1000, 'Duration is too long')
    .optional(),
  rating: z.string().trim().max(20, 'Rating is too long').optional(),
});
export type MovieFields = z.input<typeof MovieFieldsSchema>;

/** A hall in lists: its grid (rows × columns, gaps counted) and how many seats it has. */
export const HallSchema = z.object({
  id: z.string(),
  name: z.string(),
  rows: z.number().int(),
  cols: z.number().int(),
  seatCount: z.number().int().optional(),
});
export type Hall = z.infer<typeof HallSchema>;

/** `POST /api/admin/rooms` (the spec's call): a plain hall of rows × seats per row, rows lettered A, B, … */
export const CreateRoomBodySchema = z.object({
  name: DisplayTextSchema('Name', 100),
  rows: z.number().int().min(1).max(26, 'At most 26 rows'),
  cols: z.number().int().min(1).max(50, 'At most 50 seats per row'),
});
export type CreateRoomBody = z.infer<typeof CreateRoomBodySchema>;

export const SeatSchema = z.object({ id: z.string(), row: z.number().int(), number: z.number().int() });
export const HallWithSeatsSchema = HallSchema.extend({ seats: z.array(SeatSchema) });
export type HallWithSeats = z.infer<typeof HallWithSeatsSchema>;

export const ShowtimeSchema = z.object({
  id: z.string(),
  movieId: z.string(),
  auditoriumId: z.string(),
  auditorium: z.string(),
  startsAt: z.string(),
  /** The lowest price of the default ticket type (every seat's price when no price card applies). */
  priceCents: z.number().int(),
  priceCardId: z.string().nullable().optional(),
});
export type Showtime = z.infer<typeof ShowtimeSchema>;

export const AdminShowtimeSchema = z.object({
  id: z.string(),
  movieId: z.string(),
  auditoriumId: z.string(),
  startsAt: z.string(),
  priceCents: z.number().int(),
  priceCardId: z.string().nullable().optional(),
  Movie: z.object({ title: z.string() }),
  Auditorium: z.object({ name: z.string() }),
});
export type AdminShowtime = z.infer<typeof AdminShowtimeSchema>;

export const CreateShowtimeBodySchema = z.object({
  movieId: IdSchema,
  auditoriumId: IdSchema,
  startsAt: z.iso.datetime({ offset: true, message: 'startsAt must be an ISO timestamp' }),
  priceCents: z
    .number()
    .int('Price must be whole cents')
    .min(1, 'Price must be at least 1 cent')
    .max(MAX_PRICE_CENTS, 'Price is too high'),
  /** Its price card (DESIGN §6.3); without one, the card valid at its start, else every seat at priceCents. */
  priceCardId: IdSchema.optional(),
});
export type CreateShowtimeBody = z.infer<typeof CreateShowtimeBodySchema>;

export const ManagedShowtimeSchema = z.object({
  id: z.string(),
  movie: z.string(),
  auditorium: z.string(),
  startsAt: z.string(),
  priceCents: z.number().int(),
  confirmed: z.number().int(),
  held: z.number().int(),
});
export type ManagedShowtime = z.infer<typeof ManagedShowtimeSchema>;

export const AdminShowtimesQuerySchema = z.object({ movieId: IdSchema.optional() });
export type AdminShowtimesQuery = z.infer<typeof AdminShowtimesQuerySchema>;

/** The showtime a new one would overlap with, so a client can show it in the viewer's time zone. */
export const ShowtimeClashSchema = z.object({
  id: z.string(),
  movie: z.string(),
  auditorium: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
});
export type ShowtimeClash = z.infer<typeof ShowtimeClashSchema>;
export const ShowtimeOverlapErrorSchema = z.object({
  error: z.string(),
  code: z.literal('showtime_overlap'),
  clash: ShowtimeClashSchema.optional(),
});
export type ShowtimeOverlapError = z.infer<typeof ShowtimeOverlapErrorSchema>;
