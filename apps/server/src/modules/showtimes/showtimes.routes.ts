import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccessibleReleaseSchema,
  BatchClashErrorSchema,
  BatchShowtimesBodySchema,
  BatchShowtimesResponseSchema,
  ManageShowtimesQuerySchema,
  AdminShowtimeSchema,
  AdminShowtimesQuerySchema,
  CreateShowtimeBodySchema,
  ErrorSchema,
  IdParamsSchema,
  ManagedShowtimeSchema,
  OkSchema,
  ScheduleQuerySchema,
  ScheduleSchema,
  ShowtimeOverlapErrorSchema,
  ShowtimeSchema,
} from '@cinema/contract';
import { actorOf } from '../../plugins/auth.ts';
import { createBatch } from './batch.service.ts';
import { getSchedule } from './schedule.service.ts';
import {
  createShowtime,
  deleteShowtime,
  listAdminShowtimes,
  listManagedShowtimes,
  listUpcomingShowtimes,
  releaseAccessibleSeats,
} from './showtimes.service.ts';

const adminErrors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

/** Showtimes: the upcoming ones for customers; scheduling and the overview for staff. */
export const showtimesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/movies/:id/showtimes',
    {
      schema: {
        tags: ['showtimes'],
        summary: "A movie's upcoming showtimes, in start order",
        params: IdParamsSchema,
        response: { 200: z.array(ShowtimeSchema), 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => listUpcomingShowtimes(app.database.db, app.config.timeZone, request.params.id),
  );

  // Posters as the movie routes give them: absolute for clients on other origins.
  const posterBase = app.config.corsOrigins.length > 0 ? app.config.publicUrl : '';
  app.get(
    '/schedule',
    {
      schema: {
        tags: ['showtimes'],
        summary: "One day's showtimes for everyone, visitors too, with seats left and availability",
        description:
          "The showtimes of `date` (YYYY-MM-DD on the cinema's clocks; today when not given, at most 13 days " +
          'ahead; 400 otherwise) that have not started, in start order, each with `capacity`, `seatsLeft` and ' +
          '`availability` (SELLING_FAST under 20% left); the movies they show; and every day on offer with the ' +
          'number of showtimes it has left. `attributes=CAPTIONED,IMAX` keeps only the showtimes having all of them; ' +
          '`genre=DRAMA` only those of movies of that genre.',
        querystring: ScheduleQuerySchema,
        response: { 200: ScheduleSchema, 400: ErrorSchema },
      },
    },
    async (request) =>
      getSchedule(
        app.database.db,
        app.config.timeZone,
        request.query.date,
        { posterBase, ratingSystem: app.config.ratingSystem },
        request.query.attributes,
        request.query.genre,
      ),
  );

  app.get(
    '/admin/showtimes',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['showtimes'],
        summary: 'All showtimes (of one movie with ?movieId=), with movie title and hall name',
        security: [{ bearer: [] }],
        querystring: AdminShowtimesQuerySchema,
        response: { 200: z.array(AdminShowtimeSchema), ...adminErrors },
      },
    },
    async (request) => listAdminShowtimes(app.database.db, app.config.timeZone, request.query.movieId),
  );

  app.get(
    '/admin/showtimes/manage',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['showtimes'],
        summary:
          'Showtimes with confirmed tickets and live holds counted: all, or of a span (from, to), a movie or a ' +
          'hall; 50 a page with ?page= (X-Total-Count counts them all)',
        security: [{ bearer: [] }],
        querystring: ManageShowtimesQuerySchema,
        response: { 200: z.array(ManagedShowtimeSchema), ...adminErrors },
      },
    },
    async (request, reply) => {
      const { showtimes, total } = await listManagedShowtimes(
        app.database.db,
        app.config.timeZone,
        request.query,
      );
      void reply.header('x-total-count', String(total));
      return showtimes;
    },
  );

  app.post(
    '/admin/showtimes/batch',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['showtimes'],
        summary:
          'Schedule recurring showtimes (days, weekdays and times on the cinema’s clocks, in several halls): the ' +
          'plan with every clash (dryRun), or all of them at once (409 batch_clashes, nothing written)',
        security: [{ bearer: [] }],
        body: BatchShowtimesBodySchema,
        response: {
          200: BatchShowtimesResponseSchema,
          201: BatchShowtimesResponseSchema,
          ...adminErrors,
          404: ErrorSchema,
          409: BatchClashErrorSchema.or(ErrorSchema),
        },
      },
    },
    async (request, reply) => {
      const result = await createBatch(app.database.db, actorOf(request), app.config.timeZone, request.body);
      return reply.status(result.created ? 201 : 200).send(result);
    },
  );

  app.post(
    '/admin/showtimes',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['showtimes'],
        summary: 'Schedule a showtime (409 showtime_overlap when the hall is busy)',
        security: [{ bearer: [] }],
        body: CreateShowtimeBodySchema,
        response: {
          201: ShowtimeSchema,
          ...adminErrors,
          404: ErrorSchema,
          409: ShowtimeOverlapErrorSchema.or(ErrorSchema),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createShowtime(app.database.db, actorOf(request), request.body)),
  );

  app.post(
    '/admin/showtimes/:id/accessible-release',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['showtimes'],
        summary:
          'Release the showtime’s wheelchair spaces and companion seats to everyone now, before ' +
          'ACCESSIBLE_RELEASE_MINUTES (audited; a second call keeps the first time; 409 showtime_started)',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: { 200: AccessibleReleaseSchema, ...adminErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => releaseAccessibleSeats(app.deps, actorOf(request), request.params.id),
  );

  app.delete(
    '/admin/showtimes/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['showtimes'],
        summary: 'Delete a showtime (409 has_sold_tickets if it sold tickets or one is being paid for)',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: { 200: OkSchema, ...adminErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => {
      await deleteShowtime(app.deps, actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );
};
