import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorSchema, OutboxQuerySchema, OutboxResponseSchema } from '@cinema/contract';
import { listOutbox } from './outbox.service.ts';

/** The outbox for admins (DESIGN §6.6): every email the cinema wrote, newest first, and whether it went out. */
export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/outbox',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['admin', 'mail'],
        summary:
          'Emails the cinema wrote, newest first (50 a page): without SMTP_URL this is where they are read',
        security: [{ bearer: [] }],
        querystring: OutboxQuerySchema,
        response: { 200: OutboxResponseSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request) => listOutbox(app.deps, request.query.page),
  );
};
