import { z } from 'zod';
import { REPORT_MAX_DAYS } from './constants.ts';

export const REPORT_GROUPINGS = ['day', 'movie', 'showtime'] as const;

/** The days a report can name: the span ends at the start of the day after its last, and 9999-12-31 has none. */
const FIRST_REPORT_DAY = '1900-01-01';
const LAST_REPORT_DAY = '9999-12-30';
export const ReportDaySchema = z.iso
  .date({ message: 'Use a date as YYYY-MM-DD' })
  .refine(
    (day) => FIRST_REPORT_DAY <= day && day <= LAST_REPORT_DAY,
    `Choose a day from ${FIRST_REPORT_DAY} to ${LAST_REPORT_DAY}`,
  );

/**
 * `GET /api/admin/reports/sales`: from and to are days on the cinema's clocks (CINEMA_TIME_ZONE), both included; a
 * sale counts on its showtime's day. `format=csv` (or `Accept: text/csv`) answers a CSV file.
 */
export const SalesReportQuerySchema = z
  .object({
    from: ReportDaySchema,
    to: ReportDaySchema,
    groupBy: z.enum(REPORT_GROUPINGS).default('day'),
    format: z.enum(['json', 'csv']).optional(),
  })
  .refine((q) => q.from <= q.to, { message: 'The last day must not be before the first', path: ['to'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < REPORT_MAX_DAYS, {
    message: `A report covers at most ${REPORT_MAX_DAYS} days`,
    path: ['to'],
  });
export type SalesReportQuery = z.infer<typeof SalesReportQuerySchema>;

/** Admitted tickets of one ticket type (the name it was sold under). */
export const ReportAdmitsSchema = z.object({ ticketType: z.string(), admits: z.number().int() });

/** What food and drink sold: items and revenue (minor units), by a product or a category (`name`). */
export const ConcessionSalesSchema = z.object({
  name: z.string(),
  itemsSold: z.number().int(),
  revenueCents: z.number().int(),
});
export type ConcessionSales = z.infer<typeof ConcessionSalesSchema>;

export const SalesFiguresSchema = z.object({
  /** Paid tickets that still admit someone (refunded ones do not), by ticket type, and all of them. */
  admitsByType: z.array(ReportAdmitsSchema),
  admits: z.number().int(),
  /** Every ticket paid for, at its list price (before discounts), refunded ones included. */
  grossCents: z.number().int(),
  discountCents: z.number().int(),
  /**
   * Money given back for tickets: staff refunds and seats lost at payment. A ticket exchanged for a cheaper one is
   * counted at its new price (the difference given back is not counted again here).
   */
  refundCents: z.number().int(),
  /** Still to collect: the difference owed for tickets exchanged for dearer ones (counted at their new price). */
  dueCents: z.number().int(),
  /** gross − discounts − refunds − still to collect: the money taken (tax included). */
  netCents: z.number().int(),
  /**
   * Taxes (DESIGN §7.4), as each line was charged: the tax in the tickets' money taken (tickets still standing), and
   * that money without it. With prices before tax, the gross includes the tax added.
   */
  taxCents: z.number().int(),
  netOfTaxCents: z.number().int(),
  /** Booking fees kept (refunded ones left out) and their tax: apart from the tickets' figures. */
  feeCents: z.number().int(),
  feeTaxCents: z.number().int(),
  /** The tax in concessionCents. */
  concessionTaxCents: z.number().int(),
  /** Seats on sale (the halls' seats, blocked and retired ones excluded) over the group's showtimes. */
  sellableSeats: z.number().int(),
  /** admits ÷ sellable seats, 0…1 (null without sellable seats). */
  occupancy: z.number().nullable(),
  checkedIn: z.number().int(),
  /** checked in ÷ admits, 0…1 (null without admits). */
  checkInRate: z.number().nullable(),
  showtimes: z.number().int(),
  /**
   * Food and drink (DESIGN §7.2) still paid for (refunded items left out): how many items, and what they brought in.
   * Sold with tickets they count with those tickets' showtime; sold alone, on the day they were paid.
   */
  itemsSold: z.number().int(),
  concessionCents: z.number().int(),
  /** concession revenue ÷ admits, in whole minor units (null without admits): the figure cinemas watch. */
  concessionPerAdmitCents: z.number().int().nullable(),
});
export type SalesFigures = z.infer<typeof SalesFiguresSchema>;

export const SalesReportRowSchema = SalesFiguresSchema.extend({
  /** The day ("YYYY-MM-DD"), the movie's id or the showtime's id. */
  key: z.string(),
  /** For people: the day, the movie's title, or "title · day time · hall". */
  label: z.string(),
  movieTitle: z.string().nullable(),
  startsAt: z.string().nullable(),
  hallName: z.string().nullable(),
});
export type SalesReportRow = z.infer<typeof SalesReportRowSchema>;

export const SalesReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  groupBy: z.enum(REPORT_GROUPINGS),
  timeZone: z.string(),
  /** The cinema's currency (ISO 4217): every `…Cents` figure is in its minor units (JPY has none; KWD has three). */
  currency: z.string(),
  /**
   * Sales through the test payment provider (PAYMENT_PROVIDER=local) are left out while the server takes real
   * payments, and counted (and flagged here) while it runs in test mode.
   */
  testSales: z.enum(['excluded', 'included']),
  rows: z.array(SalesReportRowSchema),
  totals: SalesFiguresSchema,
  /** The span's food and drink by product and by category, the best sellers (by revenue) first. */
  concessions: z.object({
    byProduct: z.array(ConcessionSalesSchema.extend({ productId: z.string(), category: z.string() })),
    byCategory: z.array(ConcessionSalesSchema),
  }),
});
export type SalesReport = z.infer<typeof SalesReportSchema>;
