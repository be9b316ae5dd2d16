import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateHallBodySchema,
  CreateRoomBodySchema,
  ErrorSchema,
  HallLayoutResponseSchema,
  HallSchema,
  HallWithSeatsSchema,
  IdParamsSchema,
  SeatsAtStakeErrorSchema,
  UpdateLayoutBodySchema,
} from '@cinema/contract';
import { notFound } from '../../errors.ts';
import { actorOf } from '../../plugins/auth.ts';
import { createHall, createRoom, hallLayout, listHalls, updateLayout } from './halls.service.ts';

const adminErrors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };
const admin = { tags: ['halls'], security: [{ bearer: [] }] };

/**
 * Halls: the spec's `/admin/rooms` (a list, and plain halls of rows × seats), and the layout editor's API
 * (`/admin/halls`: halls with aisles, seat types, sofas, wheelchair spaces and blocked seats).
 */
export const hallsRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const path of ['/admin/rooms', '/admin/halls']) {
    app.get(
      path,
      {
        onRequest: app.requireAdmin,
        schema: {
          ...admin,
          summary: 'List halls with their grid and seat count',
          response: { 200: z.array(HallSchema), ...adminErrors },
        },
      },
      async () => listHalls(app.database.db),
    );
  }

  app.post(
    '/admin/rooms',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Add a plain hall of rows × cols seats (rows lettered A, B, …)',
        body: CreateRoomBodySchema,
        response: { 201: HallWithSeatsSchema, ...adminErrors, 409: ErrorSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createRoom(app.database.db, actorOf(request), request.body)),
  );

  app.post(
    '/admin/halls',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: 'Add a hall from its layout (rows of seats and gaps, seat types, sofas, blocked seats)',
        body: CreateHallBodySchema,
        response: { 201: HallLayoutResponseSchema, ...adminErrors, 409: ErrorSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createHall(app.database.db, actorOf(request), request.body)),
  );

  app.get(
    '/admin/halls/:id/layout',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary: "A hall's layout, as the layout editor reads it",
        params: IdParamsSchema,
        response: { 200: HallLayoutResponseSchema, ...adminErrors, 404: ErrorSchema },
      },
    },
    async (request) => {
      const layout = await hallLayout(app.database.db, request.params.id);
      if (!layout) throw notFound('Hall not found');
      return layout;
    },
  );

  app.put(
    '/admin/halls/:id/layout',
    {
      onRequest: app.requireAdmin,
      schema: {
        ...admin,
        summary:
          "Replace a hall's layout (409 seats_at_stake naming seats held or sold for a coming showtime)",
        params: IdParamsSchema,
        body: UpdateLayoutBodySchema,
        response: {
          200: HallLayoutResponseSchema,
          ...adminErrors,
          404: ErrorSchema,
          409: SeatsAtStakeErrorSchema.or(ErrorSchema),
        },
      },
    },
    async (request) => updateLayout(app.deps, actorOf(request), request.params.id, request.body),
  );
};
