import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorSchema,
  IdParamsSchema,
  MyWaitlistResponseSchema,
  StaffWaitlistSchema,
  WaitlistCountsSchema,
  WaitlistEntrySchema,
  WaitlistJoinBodySchema,
  WaitlistLeaveResponseSchema,
} from '@cinema/contract';
import { perUser } from '../../plugins/rate-limit.ts';
import {
  joinWaitlist,
  leaveWaitlist,
  myWaitlist,
  staffWaitlist,
  waitlistCounts,
} from './waitlist.service.ts';

/** Waiting lists (DESIGN §7.6): join and leave, the customer's own, and staff's view of each showtime's. */
export const waitlistRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/showtimes/:id/waitlist',
    {
      onRequest: app.requireUser,
      config: { rateLimit: perUser(30, '1 minute') },
      schema: {
        tags: ['waitlist'],
        summary:
          'Join the showtime’s waiting list for `count` seats (together, of a type): one entry per customer',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        body: WaitlistJoinBodySchema,
        response: {
          201: WaitlistEntrySchema,
          400: ErrorSchema,
          401: ErrorSchema,
          404: ErrorSchema,
          409: ErrorSchema,
          429: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const entry = await joinWaitlist(app.deps, {
        showtimeId: request.params.id,
        userId: request.user!.id,
        count: request.body.count,
        together: request.body.together,
        type: request.body.type,
      });
      return reply.status(201).send(entry);
    },
  );

  app.delete(
    '/showtimes/:id/waitlist',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['waitlist'],
        summary:
          'Leave the showtime’s waiting list; an open offer is declined and its seats pass to the next in line',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: { 200: WaitlistLeaveResponseSchema, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => leaveWaitlist(app.deps, { showtimeId: request.params.id, userId: request.user!.id }),
  );

  app.get(
    '/me/waitlist',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['waitlist'],
        summary: 'The caller’s waiting lists: place in line and offers (seats held for them until expiresAt)',
        security: [{ bearer: [] }],
        response: { 200: MyWaitlistResponseSchema, 401: ErrorSchema },
      },
    },
    async (request) => myWaitlist(app.deps, request.user!.id),
  );

  app.get(
    '/admin/waitlist',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['waitlist'],
        summary: 'Staff: customers waiting and open offers per upcoming showtime that has any',
        security: [{ bearer: [] }],
        response: { 200: WaitlistCountsSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async () => waitlistCounts(app.deps),
  );

  app.get(
    '/admin/showtimes/:id/waitlist',
    {
      onRequest: app.requireStaff,
      schema: {
        tags: ['waitlist'],
        summary: 'Staff: a showtime’s waiting list in join order (names and emails) and the offers made',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: {
          200: StaffWaitlistSchema,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request) => staffWaitlist(app.deps, request.params.id),
  );
};
