import { z } from 'zod';
import { DisplayTextSchema, IdSchema, OneLineTextSchema } from './common.ts';
import {
  BATCH_MAX_DAYS,
  MAX_CAST,
  MAX_GENRES,
  MAX_PRICE_CENTS,
  MOVIE_GENRES,
  SHOWTIME_ATTRIBUTES,
  sortAttributes,
  SUBTITLES_PATTERN,
} from './constants.ts';

export const MovieSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  durationMinutes: z.number().int().nullable(),
  rating: z.string().nullable(),
  posterUrl: z.string().nullable(),
  /** The poster at each stored width, for `<img srcset>` (`/api/posters/{id}?w=160 160w, …`); null without one. */
  posterSrcSet: z.string().nullable().optional(),
  /** Genre codes (`DRAMA`, `SCIENCE_FICTION`, …), in the order given. */
  genres: z.array(z.string()).optional(),
  cast: z.array(z.string()).optional(),
  director: z.string().nullable().optional(),
  /** YYYY-MM-DD. */
  releaseDate: z.string().nullable().optional(),
  trailerUrl: z.string().nullable().optional(),
  /** The youngest age its certificate admits (R: 17, FSK 18: 18) when it has an age rule; else null. */
  minAge: z.number().int().nullable().optional(),
});
export type Movie = z.infer<typeof MovieSchema>;

export const MovieGenreSchema = z
  .string()
  .trim()
  .toUpperCase()
  .refine((g) => (MOVIE_GENRES as readonly string[]).includes(g), {
    message: `A genre is one of ${MOVIE_GENRES.join(', ')}`,
  });

/** A list sent in one form field, comma-separated ("DRAMA, THRILLER"); empty items dropped. */
const commaList = (max: number, item: z.ZodType<string, string>, tooMany: string) =>
  z
    .string()
    .max(4000)
    .transform((list) => list.split(',').filter((x) => x.trim() !== ''))
    .pipe(z.array(item).max(max, tooMany))
    .transform((list) => [...new Set(list)]);

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
  /** A certificate of the cinema's RATING_SYSTEM (the server checks it: the schema does not know the system). */
  rating: OneLineTextSchema('Rating', 20).optional(),
  genres: commaList(MAX_GENRES, MovieGenreSchema, `At most ${MAX_GENRES} genres`).optional(),
  cast: commaList(MAX_CAST, DisplayTextSchema('Cast', 100), `At most ${MAX_CAST} cast members`).optional(),
  director: OneLineTextSchema('Director', 200).optional(),
  releaseDate: z.iso.date({ message: 'Release date must be a date as YYYY-MM-DD' }).optional(),
  trailerUrl: z
    .url({ protocol: /^https?$/, message: 'Trailer link must be an http or https address' })
    .max(500, 'Trailer link is too long')
    .optional(),
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

// ---------------------------------------------------------------------------------------------------------------
// Showtime attributes (DESIGN §7.5)

export const ShowtimeAttributeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .refine((a) => (SHOWTIME_ATTRIBUTES as readonly string[]).includes(a) || SUBTITLES_PATTERN.test(a), {
    message:
      'An attribute is one of 2D, 3D, IMAX, 4DX, DOLBY_ATMOS, ORIGINAL, DUBBED, CAPTIONED, AUDIO_DESCRIBED, ' +
      'RELAXED, PARENT_AND_BABY, SENIOR or SUBTITLES_ and a language code',
  });
export type ShowtimeAttribute = z.infer<typeof ShowtimeAttributeSchema>;

/** A showtime's attributes as a body gives them: each once, in the order badges show them. */
export const ShowtimeAttributesSchema = z
  .array(ShowtimeAttributeSchema)
  .max(12, 'At most 12 attributes')
  .transform(sortAttributes);

export const ShowtimeSchema = z.object({
  id: z.string(),
  movieId: z.string(),
  auditoriumId: z.string(),
  auditorium: z.string(),
  startsAt: z.string(),
  /** The lowest price of the default ticket type (every seat's price when no price card applies). */
  priceCents: z.number().int(),
  priceCardId: z.string().nullable().optional(),
  /** Format, language, accessibility, audience (`IMAX`, `CAPTIONED`, `SUBTITLES_EN`, …), in badge order. */
  attributes: z.array(z.string()),
});
export type Showtime = z.infer<typeof ShowtimeSchema>;

export const AdminShowtimeSchema = z.object({
  id: z.string(),
  movieId: z.string(),
  auditoriumId: z.string(),
  startsAt: z.string(),
  priceCents: z.number().int(),
  priceCardId: z.string().nullable().optional(),
  attributes: z.array(z.string()),
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
  attributes: ShowtimeAttributesSchema.optional(),
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
  movieId: z.string().optional(),
  auditoriumId: z.string().optional(),
  /** When its hall is free again: the movie's end plus cleaning. */
  endsAt: z.string().optional(),
  /** Seats that can be sold (blocked seats excluded). */
  capacity: z.number().int().optional(),
  attributes: z.array(z.string()),
});
export type ManagedShowtime = z.infer<typeof ManagedShowtimeSchema>;

/** `POST /api/admin/showtimes/{id}/accessible-release`: when its accessible seats sell as standard seats, and why. */
export const AccessibleReleaseSchema = z.object({
  accessibleReleaseAt: z.string(),
  /** `staff`: released early for this showtime; `clock`: ACCESSIBLE_RELEASE_MINUTES before the start had come. */
  releasedBy: z.enum(['staff', 'clock']),
});
export type AccessibleRelease = z.infer<typeof AccessibleReleaseSchema>;

export const ManageShowtimesQuerySchema = z.object({
  /** Showtimes starting at or after this instant (a client's "today" is its own midnight). */
  from: z.iso.datetime({ offset: true, message: 'from must be an ISO timestamp' }).optional(),
  /** … and before this one. */
  to: z.iso.datetime({ offset: true, message: 'to must be an ISO timestamp' }).optional(),
  movieId: IdSchema.optional(),
  auditoriumId: IdSchema.optional(),
  page: z.coerce.number().int().min(1).max(10_000).optional(),
});
export type ManageShowtimesQuery = z.infer<typeof ManageShowtimesQuerySchema>;

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

// ---------------------------------------------------------------------------------------------------------------
// Recurring showtimes (DESIGN §6.4)

const CalendarDaySchema = z.iso.date({ message: 'Use a date as YYYY-MM-DD' });
const ClockTimeSchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use times as HH:MM, from 00:00 to 23:59');

export const BatchShowtimesBodySchema = z
  .object({
    movieId: IdSchema,
    auditoriumIds: z
      .array(IdSchema)
      .min(1, 'Choose at least one hall')
      .max(20)
      .refine((ids) => new Set(ids).size === ids.length, { message: 'Each hall once' }),
    /** First and last day, on the cinema's calendar (CINEMA_TIME_ZONE). */
    from: CalendarDaySchema,
    to: CalendarDaySchema,
    /** ISO weekdays: Monday 1 … Sunday 7. */
    weekdays: z
      .array(z.number().int().min(1).max(7))
      .min(1, 'Choose at least one day of the week')
      .max(7)
      .refine((d) => new Set(d).size === d.length, { message: 'Each day once' }),
    /** Start times on the cinema's clocks. */
    times: z
      .array(ClockTimeSchema)
      .min(1, 'Give at least one start time')
      .max(12)
      .refine((t) => new Set(t).size === t.length, { message: 'Each time once' }),
    /** Days left out (holidays, private hires). */
    except: z.array(CalendarDaySchema).max(100).optional(),
    /** Each showtime's price; without it, the lowest adult price of its price card. */
    priceCents: z
      .number()
      .int('Price must be whole cents')
      .min(1, 'Price must be at least 1 cent')
      .max(MAX_PRICE_CENTS, 'Price is too high')
      .optional(),
    priceCardId: IdSchema.optional(),
    /** Every showtime's attributes (IMAX, CAPTIONED, …). */
    attributes: ShowtimeAttributesSchema.optional(),
    /** Only list what would be created and every clash; write nothing. */
    dryRun: z.boolean().optional(),
  })
  .refine((b) => b.from <= b.to, { message: 'The last day must not be before the first', path: ['to'] })
  .refine((b) => (Date.parse(b.to) - Date.parse(b.from)) / 86_400_000 < BATCH_MAX_DAYS, {
    message: `A batch covers at most ${BATCH_MAX_DAYS} days`,
    path: ['to'],
  });
export type BatchShowtimesBody = z.infer<typeof BatchShowtimesBodySchema>;

/** One showtime of a batch: where and when, on the cinema's clocks too. */
export const BatchShowtimeSchema = z.object({
  auditoriumId: z.string(),
  auditorium: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  /** Its day and time on the cinema's clocks. */
  localDate: z.string(),
  localTime: z.string(),
  priceCents: z.number().int(),
  /** Present once created. */
  id: z.string().optional(),
});
export type BatchShowtime = z.infer<typeof BatchShowtimeSchema>;

/** Why a showtime of a batch cannot be created. */
export const BatchProblemSchema = BatchShowtimeSchema.extend({
  reason: z.enum(['overlap', 'overlaps_batch', 'in_the_past', 'skipped_by_clocks', 'no_price']),
  /** What it would overlap: a showtime already scheduled, or another of the batch (without id). */
  clash: ShowtimeClashSchema.extend({ id: z.string().nullable() }).optional(),
  message: z.string(),
});
export type BatchProblem = z.infer<typeof BatchProblemSchema>;

export const BatchShowtimesResponseSchema = z.object({
  /** Whether the showtimes were written (false for a dry run). */
  created: z.boolean(),
  showtimes: z.array(BatchShowtimeSchema),
  problems: z.array(BatchProblemSchema),
});
export type BatchShowtimesResponse = z.infer<typeof BatchShowtimesResponseSchema>;
export const BatchClashErrorSchema = z.object({
  error: z.string(),
  code: z.literal('batch_clashes'),
  showtimes: z.array(BatchShowtimeSchema),
  problems: z.array(BatchProblemSchema),
});

/** How many days ahead the public schedule offers: today and the next 13 (DESIGN §6.6). */
export const SCHEDULE_DAYS = 14;
/** A showtime is "selling fast" when fewer than this share of its seats for sale is left. */
export const SELLING_FAST_SHARE = 0.2;

/**
 * `GET /api/schedule?date=&attributes=`: one day of the cinema's clocks (today when not given), only the showtimes
 * having every attribute listed (comma-separated).
 */
export const ScheduleQuerySchema = z.object({
  date: CalendarDaySchema.optional(),
  attributes: z
    .string()
    .max(300)
    .transform((list) => list.split(',').filter((a) => a.trim() !== ''))
    .pipe(ShowtimeAttributesSchema)
    .optional(),
  /** Only the showtimes of movies of this genre. */
  genre: MovieGenreSchema.optional(),
});
export type ScheduleQuery = z.infer<typeof ScheduleQuerySchema>;

export const AvailabilitySchema = z.enum(['AVAILABLE', 'SELLING_FAST', 'SOLD_OUT']);
export type Availability = z.infer<typeof AvailabilitySchema>;

/** One showtime of the public schedule: where, when, from what price and how many seats are left. */
export const ScheduleShowtimeSchema = ShowtimeSchema.extend({
  /** Seats for sale in the hall (blocked seats not counted). */
  capacity: z.number().int(),
  /** Seats neither sold nor held right now. */
  seatsLeft: z.number().int(),
  /** AVAILABLE, SELLING_FAST (under 20% left) or SOLD_OUT. */
  availability: AvailabilitySchema,
});
export type ScheduleShowtime = z.infer<typeof ScheduleShowtimeSchema>;

/**
 * `GET /api/schedule`: the showtimes of one day still to start, in start order, with the movies they show, and the
 * days the schedule offers with how many showtimes each has left.
 */
export const ScheduleSchema = z.object({
  date: z.string(),
  /** The cinema's time zone: days and times are read on its clocks. */
  timeZone: z.string(),
  days: z.array(z.object({ date: z.string(), showtimes: z.number().int() })),
  movies: z.array(MovieSchema),
  showtimes: z.array(ScheduleShowtimeSchema),
});
export type Schedule = z.infer<typeof ScheduleSchema>;
