import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorSchema, SalesReportQuerySchema, SalesReportSchema, type SalesReport } from '@cinema/contract';
import { runPeriodically } from '../../periodic.ts';
import { refreshKeptFigures, salesReport, salesReportCsv } from './reports.service.ts';

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
      const wantsCsv =
        request.query.format === 'csv' ||
        (request.query.format === undefined && /\btext\/csv\b/i.test(request.headers.accept ?? ''));
      if (!wantsCsv) return report;
      const name = `sales-${report.from}-to-${report.to}-by-${report.groupBy}.csv`;
      return reply
        .header('content-disposition', `attachment; filename="${name}"`)
        .type('text/csv; charset=utf-8')
        .send(salesReportCsv(report) as unknown as SalesReport);
    },
  );
};
