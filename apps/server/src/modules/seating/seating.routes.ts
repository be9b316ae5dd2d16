import negotiate from '@fastify/accept-negotiator';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MoreTimeBodySchema,
  MoreTimeResponseSchema,
  BestAvailableBodySchema,
  BestAvailableResponseSchema,
  CancelHoldsBodySchema,
  CancelHoldsResponseSchema,
  ErrorSchema,
  HoldBodySchema,
  HoldResponseSchema,
  IdParamsSchema,
  HoldErrorSchema,
  SeatMapSchema,
  type SeatMap,
} from '@cinema/contract';
import { perUser } from '../../plugins/rate-limit.ts';
import type { Viewer } from './seat-map-cache.ts';
import { cancelHolds, findBestAvailable, holdSeats, moreTime, type SeatingDeps } from './seating.service.ts';

/** Seat maps, holds and cancelling holds. */
export const seatingRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: SeatingDeps = { ...app.deps, seatMaps: app.seatMaps, bestSeats: app.bestSeats };
  // Accept-Encoding, as RFC 9110 has it (q-values, `*`, `identity`; codings are case-insensitive).
  const ENCODINGS = ['gzip', 'identity'];
  app.get(
    '/showtimes/:id/seats',
    {
      schema: {
        tags: ['seats'],
        summary: 'Seat map of a showtime; the caller’s own live holds carry heldByMe and bookingId',
        params: IdParamsSchema,
        response: { 200: SeatMapSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    // Not an async function: the answer is chained on the map's promise (see SeatMapCache.body).
    (request, reply) => {
      const acceptsGzip =
        negotiate((request.headers['accept-encoding'] ?? '').toLowerCase(), ENCODINGS) === 'gzip';
      // Only a customer holding seats in this showtime has a map of their own, so only their session is checked.
      const viewer: Viewer = (holdsSeats) => {
        const user = app.userIf(request, holdsSeats);
        return user instanceof Promise ? user.then((u) => u?.id ?? null) : (user?.id ?? null);
      };
      return app.seatMaps.body(request.params.id, viewer, acceptsGzip).then(({ body, gzip }) => {
        reply.header('vary', 'accept-encoding');
        if (gzip) reply.header('content-encoding', 'gzip');
        reply.type('application/json; charset=utf-8');
        // Already JSON (built from the very shapes the schema describes), or that JSON gzipped: fastify sends a
        // string or a buffer as it is, which the schema's typing cannot express.
        return body as unknown as SeatMap;
      });
    },
  );

  app.post(
    '/showtimes/:id/hold',
    {
      onRequest: app.requireUser,
      preHandler: app.idempotent,
      config: { rateLimit: perUser(60, '1 minute') },
      schema: {
        tags: ['seats'],
        summary:
          'Hold seats, all or nothing, until expiresAt (an Idempotency-Key header replays the first answer to retries)',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        body: HoldBodySchema,
        response: {
          201: HoldResponseSchema,
          400: HoldErrorSchema,
          401: ErrorSchema,
          404: ErrorSchema,
          409: HoldErrorSchema,
          422: ErrorSchema,
          429: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const held = await holdSeats(deps, {
        showtimeId: request.params.id,
        userId: request.user!.id,
        seatIds: request.body.seatIds,
        clientAddress: request.ip,
      });
      // The answer is returned, not sent: a sent reply returned from an async handler is a thenable that fastify
      // waits on by listening for the response's end (see the error handler in plugins/errors.ts).
      reply.status(201);
      return held;
    },
  );

  app.delete(
    '/showtimes/bookings/cancel',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['seats'],
        summary: 'Cancel the caller’s own live holds (other bookings are left alone and not counted)',
        security: [{ bearer: [] }],
        body: CancelHoldsBodySchema,
        response: { 200: CancelHoldsResponseSchema, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) =>
      cancelHolds(app.deps, { userId: request.user!.id, bookingIds: request.body.bookingIds }),
  );

  app.post(
    '/showtimes/bookings/more-time',
    {
      onRequest: app.requireUser,
      config: { rateLimit: perUser(30, '1 minute') },
      schema: {
        tags: ['seats'],
        summary: '“More time” for the caller’s own live holds: another HOLD_MINUTES, once in a hold’s life',
        security: [{ bearer: [] }],
        body: MoreTimeBodySchema,
        response: { 200: MoreTimeResponseSchema, 400: ErrorSchema, 401: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => moreTime(app.deps, { userId: request.user!.id, bookingIds: request.body.bookingIds }),
  );

  app.post(
    '/showtimes/:id/best-available',
    {
      onRequest: app.requireUser,
      config: { rateLimit: perUser(60, '1 minute') },
      schema: {
        tags: ['seats'],
        summary: 'The best seats together for `count` people (held at once with `hold: true`)',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        body: BestAvailableBodySchema,
        response: {
          200: BestAvailableResponseSchema,
          400: HoldErrorSchema,
          401: ErrorSchema,
          404: ErrorSchema,
          409: HoldErrorSchema,
          429: ErrorSchema,
        },
      },
    },
    async (request) =>
      findBestAvailable(deps, {
        showtimeId: request.params.id,
        count: request.body.count,
        type: request.body.type,
        hold: request.body.hold ? { userId: request.user!.id, clientAddress: request.ip } : undefined,
      }),
  );
};
