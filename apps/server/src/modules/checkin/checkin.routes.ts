import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorSchema, ScanBodySchema, ScanResponseSchema } from '@cinema/contract';
import { perUser } from '../../plugins/rate-limit.ts';
import { checkInTicket } from './checkin.service.ts';

export const checkinRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/admin/scan',
    {
      onRequest: app.requireAdmin,
      config: { rateLimit: perUser(300, '1 minute') },
      schema: {
        tags: ['admin'],
        summary: 'Check a ticket in at the door (the QR code carries the booking id)',
        security: [{ bearer: [] }],
        body: ScanBodySchema,
        response: {
          200: ScanResponseSchema,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
          409: ErrorSchema,
          429: ErrorSchema,
        },
      },
    },
    async (request) => checkInTicket(app.database.db, request.body.bookingId),
  );
};
