import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AuditoriumSchema,
  AuditoriumWithSeatsSchema,
  CreateAuditoriumBodySchema,
  ErrorSchema,
} from '@cinema/contract';
import { createHall, listHalls } from './halls.service.ts';

const adminErrors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

/** Halls (`/admin/rooms` in the API, as the spec has it): staff list them and add new ones with their seats. */
export const hallsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/rooms',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['halls'],
        summary: 'List halls',
        security: [{ bearer: [] }],
        response: { 200: z.array(AuditoriumSchema), ...adminErrors },
      },
    },
    async () => listHalls(app.database.db),
  );

  app.post(
    '/admin/rooms',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['halls'],
        summary: 'Add a hall with rows × cols seats',
        security: [{ bearer: [] }],
        body: CreateAuditoriumBodySchema,
        response: { 201: AuditoriumWithSeatsSchema, ...adminErrors, 409: ErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await createHall(app.database.db, request.body)),
  );
};
