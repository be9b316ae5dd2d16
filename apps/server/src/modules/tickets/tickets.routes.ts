import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BookedSeatSchema,
  ErrorSchema,
  IdParamsSchema,
  ShowtimeTicketSchema,
  TicketsResponseSchema,
} from '@cinema/contract';
import { listBookedSeats, listMyTickets, listShowtimeTickets } from './tickets.service.ts';

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
    async (request) => listBookedSeats(app.database.db, request.params.id),
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
