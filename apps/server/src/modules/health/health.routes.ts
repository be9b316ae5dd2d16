import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HealthSchema, HealthDownSchema, type Health } from '@cinema/contract';
import { RETRY_AFTER_SECONDS } from '../../db/unavailable.ts';
import { checkDatabase, checkDisk } from './health.service.ts';

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

  const embeddedDir =
    app.database.engine === 'pglite' && app.config.dataDir !== 'memory://' ? app.config.dataDir : null;

  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary:
          'Readiness: the database, Redis (when configured) and the embedded database’s disk; 503 when one is down',
        response: { 200: HealthSchema, 503: HealthDownSchema },
      },
    },
    async (_request, reply) => {
      const [database, disk] = await Promise.all([
        checkDatabase(app.database.db),
        embeddedDir ? checkDisk(embeddedDir) : Promise.resolve(null),
      ]);
      const redis = app.config.redisUrl ? app.realtime.linked() && app.redis?.isReady === true : null;
      const checks: Health['checks'] = {
        database: database ? 'up' : 'down',
        ...(redis === null ? {} : { redis: redis ? 'up' : 'down' }),
        ...(disk ? { disk: disk.ok ? 'up' : 'down', diskFreeBytes: disk.freeBytes } : {}),
      };
      const down = Object.entries(checks)
        .filter(([, v]) => v === 'down')
        .map(([k]) => k);
      if (down.length > 0) {
        return reply
          .status(503)
          .header('retry-after', String(RETRY_AFTER_SECONDS))
          .send({
            error: `Unavailable: ${down.join(', ')} down`,
            code: 'service_unavailable',
            retryAfterSeconds: RETRY_AFTER_SECONDS,
            checks,
          });
      }
      return { ok: true as const, database: app.database.engine, checks };
    },
  );
};
