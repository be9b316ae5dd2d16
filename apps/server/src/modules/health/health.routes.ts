import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorSchema } from '@cinema/contract';
import { checkDatabase } from './health.service.ts';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  // No database and no work: the baseline the benchmark compares real routes with (and a cheap liveness probe).
  app.get(
    '/health/live',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness only: answers without touching the database',
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async () => ({ ok: true as const }),
  );

  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database check',
        response: { 200: z.object({ ok: z.literal(true), database: z.string() }), 503: ErrorSchema },
      },
    },
    async (_request, reply) => {
      if (!(await checkDatabase(app.database.db))) {
        return reply.status(503).send({ error: 'Database unreachable', code: 'internal_error' });
      }
      return { ok: true as const, database: app.database.engine };
    },
  );
};
