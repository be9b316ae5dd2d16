import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BookedSeatSchema,
  ErrorSchema,
  IdParamsSchema,
  OrderRefParamsSchema,
  ShowtimeTicketSchema,
  TicketsResponseSchema,
} from '@cinema/contract';
import { perUser } from '../../plugins/rate-limit.ts';
import { listBookedSeats, listMyTickets, listShowtimeTickets } from './tickets.service.ts';
import { orderTicketsOf, ticketsPdf } from './tickets-pdf.service.ts';

export const ticketsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me/tickets',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['tickets'],
        summary: "The caller's paid tickets, upcoming first",
        security: [{ bearer: [] }],
        response: { 200: TicketsResponseSchema, 401: ErrorSchema },
      },
    },
    async (request) => ({ tickets: await listMyTickets(app.database.db, request.user!.id) }),
  );

  app.get(
    '/me/orders/:ref/tickets.pdf',
    {
      onRequest: app.requireUser,
      config: { rateLimit: perUser(60, '1 minute') },
      schema: {
        tags: ['tickets'],
        summary:
          "One of the caller's orders as a PDF: a page per ticket with its QR code, movie, start, hall and seat",
        description: 'application/pdf; 404 for an order of someone else or one without paid tickets.',
        security: [{ bearer: [] }],
        params: OrderRefParamsSchema,
      },
    },
    async (request, reply) => {
      const order = await orderTicketsOf(app.database.db, request.user!.id, request.params.ref);
      const pdf = await ticketsPdf(app.config, order, request.language);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="tickets-${order.ref}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  app.get(
    '/admin/showtimes/:id/booked',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['tickets', 'admin'],
        summary: 'Paid seats of a showtime with their buyers (admins and staff)',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: {
          200: z.array(BookedSeatSchema),
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request) => listBookedSeats(app.database, request.params.id, app.config.ratingSystem),
  );

  app.get(
    '/admin/showtimes/:id/tickets',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['tickets', 'admin'],
        summary: 'Tickets of a showtime for printing QR codes',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: {
          200: z.array(ShowtimeTicketSchema),
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request) => listShowtimeTickets(app.database.db, request.params.id),
  );
};
