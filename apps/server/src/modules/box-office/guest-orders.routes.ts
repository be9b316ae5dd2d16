import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorSchema, GuestOrderQuerySchema, GuestOrderSchema } from '@cinema/contract';
import { notFound } from '../../errors.ts';
import { foodOf, ticketsPdf } from '../tickets/tickets-pdf.service.ts';
import { guestOrder } from './guest-orders.service.ts';

/** Per-address limit on guest links: the token cannot be guessed, and nobody gets to try many. */
const GUEST_LINK_LIMIT = { max: 60, timeWindow: '1 minute' } as const;

/**
 * Guest orders (issue 31): a counter sale to an email no verified account has is shown, with its tickets and their
 * PDF, to whoever holds the link emailed with it; no sign-in.
 */
export const guestOrdersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/guest-order',
    {
      config: { rateLimit: GUEST_LINK_LIMIT },
      schema: {
        tags: ['box office'],
        summary: 'A guest order and its tickets, by the token its emailed link carries',
        description: 'No sign-in: the token is the key. Unknown token: 404.',
        querystring: GuestOrderQuerySchema,
        response: { 200: GuestOrderSchema, 400: ErrorSchema, 404: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return guestOrder(app.database.db, request.query.token);
    },
  );

  app.get(
    '/guest-order/tickets.pdf',
    {
      config: { rateLimit: GUEST_LINK_LIMIT },
      schema: {
        tags: ['box office'],
        summary: "A guest order's tickets as a PDF, by the token its emailed link carries",
        description: 'application/pdf; 404 for an unknown token or an order without paid tickets.',
        querystring: GuestOrderQuerySchema,
      },
    },
    async (request, reply) => {
      const { order, tickets } = await guestOrder(app.database.db, request.query.token);
      const food = foodOf(order);
      if (tickets.length === 0 && !food) throw notFound('This order has no tickets (not paid, or refunded)');
      const pdf = await ticketsPdf(app.config, { ref: order.ref, tickets, food }, request.language);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="tickets-${order.ref}.pdf"`)
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .send(pdf);
    },
  );
};
