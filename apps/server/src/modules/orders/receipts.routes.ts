import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OrderRefParamsSchema, type Order } from '@cinema/contract';
import type { FastifyReply } from 'fastify';
import { perUser } from '../../plugins/rate-limit.ts';
import { getStaffOrder } from '../box-office/staff-orders.service.ts';
import { getMyOrder } from './orders.service.ts';
import { receiptPdf } from './receipt-pdf.ts';

/** An order's receipt as a PDF (DESIGN §7.4): its customer's, and any order's for staff. */
export const receiptsRoutes: FastifyPluginAsyncZod = async (app) => {
  const send = async (reply: FastifyReply, order: Order, language: Parameters<typeof receiptPdf>[2]) =>
    reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="receipt-${order.ref}.pdf"`)
      .header('cache-control', 'private, no-store')
      .send(await receiptPdf(app.config, order, language));
  const description =
    'application/pdf: the cinema (CINEMA_NAME, CINEMA_ADDRESS, CINEMA_TAX_NUMBER), each line with its tax rate, net, tax by rate and gross, payments and refunds; 404 for an order never paid.';

  app.get(
    '/me/orders/:ref/receipt.pdf',
    {
      onRequest: app.requireUser,
      config: { rateLimit: perUser(60, '1 minute') },
      schema: {
        tags: ['payments'],
        summary: "The receipt of one of the caller's orders",
        description,
        security: [{ bearer: [] }],
        params: OrderRefParamsSchema,
      },
    },
    async (request, reply) =>
      send(reply, await getMyOrder(app.database.db, request.user!.id, request.params.ref), request.language),
  );
  app.get(
    '/admin/orders/:ref/receipt.pdf',
    {
      onRequest: app.requireStaff,
      config: { rateLimit: perUser(120, '1 minute') },
      schema: {
        tags: ['admin'],
        summary: 'The receipt of any order, for staff to print or send',
        description,
        security: [{ bearer: [] }],
        params: OrderRefParamsSchema,
      },
    },
    async (request, reply) =>
      send(reply, await getStaffOrder(app.database.db, request.params.ref), request.language),
  );
};
