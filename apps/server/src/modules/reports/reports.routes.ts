import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BoxOfficeReturnsSchema,
  ErrorSchema,
  FilmHireReportSchema,
  FilmWeekQuerySchema,
  SalesReportQuerySchema,
  SalesReportSchema,
  type SalesReport,
} from '@cinema/contract';
import { runPeriodically } from '../../periodic.ts';
import { refreshKeptFigures, salesReport, salesReportCsv } from './reports.service.ts';
import { boxOfficeCsv, boxOfficeReturns, filmHireCsv, filmHireReport } from './film-hire-report.ts';

/** Whether a report is asked for as CSV: `format=csv`, or `Accept: text/csv` without a format. */
const wantsCsv = (request: {
  query: { format?: 'json' | 'csv' | undefined };
  headers: { accept?: string };
}) =>
  request.query.format === 'csv' ||
  (request.query.format === undefined && /\btext\/csv\b/i.test(request.headers.accept ?? ''));

/** A report as a CSV file to download. */
const sendCsv = (reply: FastifyReply, name: string, text: string) =>
  reply
    .header('content-disposition', `attachment; filename="${name}"`)
    .type('text/csv; charset=utf-8')
    .send(text);

/** How often the figures of every showtime sold since are computed and kept, ahead of any report. */
const KEEP_EVERY_MS = 10 * 60_000;

/** Sales reports for admins (DESIGN §6.4): JSON, or CSV with `Accept: text/csv` or `?format=csv`. */
export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  runPeriodically(app, KEEP_EVERY_MS, 'keeping the sales report figures', () =>
    refreshKeptFigures(app.database.db, '-infinity', 'infinity'),
  );
  app.get(
    '/admin/reports/sales',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['admin'],
        summary:
          'Sales by day, movie or showtime (days on the cinema clocks, a sale on its showtime day): admits by ticket ' +
          'type, gross, discounts, refunds, net, occupancy, check-in rate; CSV with Accept: text/csv or format=csv',
        security: [{ bearer: [] }],
        querystring: SalesReportQuerySchema,
        response: { 200: SalesReportSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request, reply) => {
      const report = await salesReport(
        app.database.db,
        {
          timeZone: app.config.timeZone,
          currency: app.config.currency,
          includeTestSales: app.config.paymentProvider === 'local',
        },
        request.query,
      );
      // Written as JSON here, not by the schema's serializer: checking a year by showtime (5,000 rows of some thirty
      // fields) against the schema before writing it took longer than building the report. The report is built in
      // the contract's shape and field order, so the text is the same; the reports' tests read it through the schema.
      if (!wantsCsv(request))
        return reply
          .type('application/json; charset=utf-8')
          .send(JSON.stringify(report) as unknown as SalesReport);
      const name = `sales-${report.from}-to-${report.to}-by-${report.groupBy}.csv`;
      return sendCsv(reply, name, salesReportCsv(report));
    },
  );

  const filmWeekOptions = {
    timeZone: app.config.timeZone,
    currency: app.config.currency,
    filmWeekStart: app.config.filmWeekStart,
    includeTestSales: app.config.paymentProvider === 'local',
  };
  app.get(
    '/admin/reports/film-hire',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['admin'],
        summary:
          'Film hire for a film week (week: its first day, FILM_WEEK_START): per distributor and film, admissions, ' +
          'gross, tax, net box office and rental due; CSV with Accept: text/csv or format=csv',
        description:
          'Net box office: ticket lines as charged, less refunds, without their tax (fees and food are lines of their ' +
          'own). Rental: max(percent × net, guarantee), the percent by week of run (week 1: the film week of its ' +
          'first showtime), rounded half up per film. A ticket counts in the week its showtime starts in.',
        security: [{ bearer: [] }],
        querystring: FilmWeekQuerySchema,
        response: { 200: FilmHireReportSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request, reply) => {
      const report = await filmHireReport(app.database.db, filmWeekOptions, request.query.week);
      if (!wantsCsv(request)) return report;
      return sendCsv(reply, `film-hire-${report.week}.csv`, filmHireCsv(report));
    },
  );
  app.get(
    '/admin/reports/box-office',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['admin'],
        summary:
          'Box-office returns for a film week (week: its first day): admissions and gross per film, day and ' +
          'showtime, for distributors and measurement services; CSV with Accept: text/csv or format=csv',
        security: [{ bearer: [] }],
        querystring: FilmWeekQuerySchema,
        response: { 200: BoxOfficeReturnsSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request, reply) => {
      const report = await boxOfficeReturns(app.database.db, filmWeekOptions, request.query.week);
      if (!wantsCsv(request)) return report;
      return sendCsv(reply, `box-office-${report.week}.csv`, boxOfficeCsv(report));
    },
  );
};
