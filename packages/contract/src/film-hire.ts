import { z } from 'zod';
import { DisplayTextSchema, IdSchema } from './common.ts';
import { ReportDaySchema } from './reports.ts';

// Film hire (DESIGN §7.4, decision 048): what the cinema owes each distributor for the films it played in a film
// week, a percentage of the net box office (ticket revenue without tax and fees, after refunds), sliding by week of
// run, never less than a minimum guarantee; and the box-office returns distributors and measurement services take.

/** A distributor films are hired from (`/admin/distributors`). */
export const DistributorSchema = z.object({ id: z.string(), name: z.string() });
export type Distributor = z.infer<typeof DistributorSchema>;

export const DistributorBodySchema = z.object({ name: DisplayTextSchema('Name', 80) });
export type DistributorBody = z.infer<typeof DistributorBodySchema>;

/** A share of the net box office in percent, to the hundredth (47.5, 35.25); kept in basis points. */
export const HirePercentSchema = z
  .number({ message: 'Percent must be a number from 0 to 100' })
  .min(0, 'Percent must be a number from 0 to 100')
  .max(100, 'Percent must be a number from 0 to 100')
  .refine((p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-6, 'Percent has at most two decimals');

/** The longest run a sliding scale names (ten years of film weeks). */
export const MAX_RUN_WEEK = 520;

/** From week `fromWeek` of the run on (week 1: the film week of its first showtime), the share is `percent`. */
export const FilmHireStepSchema = z.object({
  fromWeek: z
    .number()
    .int('Week of run must be a whole number')
    .min(2, 'A sliding scale starts from week 2 or later: week 1 is the percent of the terms')
    .max(MAX_RUN_WEEK, `Week of run must be at most ${MAX_RUN_WEEK}`),
  percent: HirePercentSchema,
});
export type FilmHireStep = z.infer<typeof FilmHireStepSchema>;

/** `PUT /api/admin/movies/{id}/film-hire`: a movie's distributor and terms. */
export const FilmHireTermsBodySchema = z.object({
  distributorId: IdSchema,
  percent: HirePercentSchema,
  /** The least owed for a film week it plays, in minor units (none: null or left out). */
  guaranteeCents: z
    .number()
    .int('A guarantee is a whole number of minor units')
    .min(0, 'A guarantee cannot be negative')
    .max(1_000_000_000, 'A guarantee is too large')
    .nullable()
    .optional(),
  scale: z
    .array(FilmHireStepSchema)
    .max(20, 'A sliding scale has at most 20 steps')
    .refine((steps) => new Set(steps.map((s) => s.fromWeek)).size === steps.length, {
      message: 'Each week of run may start one step of the scale',
    })
    .optional(),
});
export type FilmHireTermsBody = z.infer<typeof FilmHireTermsBodySchema>;

/** A movie's film-hire terms, the scale by week of run. */
export const FilmHireTermsSchema = z.object({
  movieId: z.string(),
  distributorId: z.string(),
  distributorName: z.string(),
  percent: z.number(),
  guaranteeCents: z.number().int().nullable(),
  scale: z.array(z.object({ fromWeek: z.number().int(), percent: z.number() })),
});
export type FilmHireTerms = z.infer<typeof FilmHireTermsSchema>;

/** `GET /api/admin/film-hire/terms`: every movie (newest first) with its terms, null when it has none. */
export const MovieFilmHireSchema = z.object({
  movieId: z.string(),
  title: z.string(),
  terms: FilmHireTermsSchema.nullable(),
});
export const MovieFilmHireListSchema = z.array(MovieFilmHireSchema);
export type MovieFilmHire = z.infer<typeof MovieFilmHireSchema>;

/** `?week=`: the first day of a film week on the cinema's clocks (FILM_WEEK_START's weekday). */
export const FilmWeekQuerySchema = z.object({
  week: ReportDaySchema,
  format: z.enum(['json', 'csv']).optional(),
});
export type FilmWeekQuery = z.infer<typeof FilmWeekQuerySchema>;

/** Admissions and money of tickets: gross as charged after refunds (tax included), its tax, and net = gross - tax. */
const BoxOfficeFiguresSchema = z.object({
  admissions: z.number().int(),
  grossCents: z.number().int(),
  taxCents: z.number().int(),
  netCents: z.number().int(),
});

export const FilmHireFilmSchema = BoxOfficeFiguresSchema.extend({
  movieId: z.string(),
  title: z.string(),
  /** The film week of its run this is (1: that of its first showtime), the share it is owed at, its guarantee. */
  weekOfRun: z.number().int(),
  percent: z.number(),
  guaranteeCents: z.number().int().nullable(),
  /** max(percent × net, guarantee), rounded half up to the minor unit, per film. */
  rentalCents: z.number().int(),
  guaranteeApplied: z.boolean(),
});
export type FilmHireFilm = z.infer<typeof FilmHireFilmSchema>;

/** `GET /api/admin/reports/film-hire?week=`: rental due per distributor and film for one film week. */
export const FilmHireReportSchema = z.object({
  week: z.string(),
  /** The week's last day, the time zone its days are read in, its currency and the weekday weeks start on (ISO). */
  lastDay: z.string(),
  timeZone: z.string(),
  currency: z.string(),
  filmWeekStart: z.number().int(),
  testSales: z.enum(['included', 'excluded']),
  distributors: z.array(
    DistributorSchema.extend({
      rentalCents: z.number().int(),
      films: z.array(FilmHireFilmSchema),
    }),
  ),
  /** Films played that week without terms: no rental is worked out for them. */
  withoutTerms: z.array(BoxOfficeFiguresSchema.extend({ movieId: z.string(), title: z.string() })),
  totals: BoxOfficeFiguresSchema.extend({ rentalCents: z.number().int() }),
});
export type FilmHireReport = z.infer<typeof FilmHireReportSchema>;

const AdmissionsGrossSchema = z.object({ admissions: z.number().int(), grossCents: z.number().int() });

/** `GET /api/admin/reports/box-office?week=`: admissions and gross per film, showtime and day (the returns). */
export const BoxOfficeReturnsSchema = z.object({
  week: z.string(),
  lastDay: z.string(),
  timeZone: z.string(),
  currency: z.string(),
  testSales: z.enum(['included', 'excluded']),
  films: z.array(
    AdmissionsGrossSchema.extend({
      movieId: z.string(),
      title: z.string(),
      distributor: z.string().nullable(),
      days: z.array(AdmissionsGrossSchema.extend({ date: z.string() })),
      showtimes: z.array(
        AdmissionsGrossSchema.extend({
          showtimeId: z.string(),
          startsAt: z.string(),
          /** Its day and time on the cinema's clocks. */
          date: z.string(),
          time: z.string(),
          hall: z.string(),
        }),
      ),
    }),
  ),
  totals: AdmissionsGrossSchema,
});
export type BoxOfficeReturns = z.infer<typeof BoxOfficeReturnsSchema>;
