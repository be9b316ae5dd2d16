import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DoorListResponseSchema,
  DoorShowtimesResponseSchema,
  ErrorSchema,
  IdParamsSchema,
  ScanBodySchema,
  ScanErrorSchema,
  ScanResponseSchema,
  ScanSyncBodySchema,
  ScanSyncResponseSchema,
  ScanUndoBodySchema,
  ScanUndoResponseSchema,
} from '@cinema/contract';
import { actorOf } from '../../plugins/auth.ts';
import { perUser } from '../../plugins/rate-limit.ts';
import { checkInTicket, doorList, doorShowtimes, syncCheckIns, undoCheckIn } from './checkin.service.ts';

/** The door (admins and staff; DESIGN §6.5). */
export const checkinRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({ db: app.database.db, config: app.config });
  const guarded = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 429: ErrorSchema };

  app.post(
    '/admin/scan',
    {
      onRequest: app.requireStaff,
      config: { rateLimit: perUser(300, '1 minute') },
      schema: {
        tags: ['admin'],
        summary:
          'Check a ticket in at the door (the QR code carries the booking id); naming the showtime refuses tickets for others and outside the entry window',
        security: [{ bearer: [] }],
        body: ScanBodySchema,
        response: { 200: ScanResponseSchema, ...guarded, 404: ErrorSchema, 409: ScanErrorSchema },
      },
    },
    async (request) => checkInTicket(deps(), actorOf(request), request.body),
  );

  app.post(
    '/admin/scan/undo',
    {
      onRequest: app.requireStaff,
      config: { rateLimit: perUser(300, '1 minute') },
      schema: {
        tags: ['admin'],
        summary: 'Undo a check-in made within the last 15 minutes (audited)',
        security: [{ bearer: [] }],
        body: ScanUndoBodySchema,
        response: { 200: ScanUndoResponseSchema, ...guarded, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => undoCheckIn(deps(), actorOf(request), request.body.bookingId),
  );

  app.post(
    '/admin/scan/sync',
    {
      onRequest: app.requireStaff,
      config: { rateLimit: perUser(300, '1 minute') },
      schema: {
        tags: ['admin'],
        summary:
          'Send check-ins made offline; the first check-in wins, others come back as conflicts (idempotent)',
        security: [{ bearer: [] }],
        body: ScanSyncBodySchema,
        response: { 200: ScanSyncResponseSchema, ...guarded },
      },
    },
    async (request) => syncCheckIns(deps(), actorOf(request), request.body),
  );

  app.get(
    '/admin/scan/showtimes',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['admin'],
        summary: 'Showtimes the door may admit (entry open first) with sold, checked-in and to-come counts',
        security: [{ bearer: [] }],
        response: { 200: DoorShowtimesResponseSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async () => ({ showtimes: await doorShowtimes(deps()) }),
  );

  app.get(
    '/admin/scan/showtimes/:id',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['admin'],
        summary: 'A showtime’s tickets and counts, for a scanner to keep and validate offline',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: {
          200: DoorListResponseSchema,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request) => doorList(deps(), request.params.id),
  );
};
