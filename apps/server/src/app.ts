import Fastify, { type FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { MAX_POSTER_BYTES } from '@cinema/contract';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { authPlugin } from './plugins/auth.ts';
import { dbPlugin } from './plugins/db.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { realtimePlugin } from './plugins/realtime.ts';
import { webPlugin } from './plugins/web.ts';
import { healthRoutes } from './modules/health/health.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

export interface BuildOptions {
  /** An already opened database (tests share one per file); otherwise the configured one is opened. */
  database?: Database;
}

/** The whole application as one Fastify plugin tree; server.ts listens, tests inject. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.password'],
    },
    bodyLimit: 1024 * 1024,
    trustProxy: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);

  const database =
    options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  await app.register(errorsPlugin);
  await app.register(dbPlugin, { database });
  await app.register(realtimePlugin, { redisUrl: config.redisUrl });
  await app.register(authPlugin);
  await app.register(fastifyRateLimit, { global: false });
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_POSTER_BYTES, files: 1, fields: 20 } });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Cinema ticketing API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
    },
    { prefix: '/api' },
  );

  await app.register(webPlugin, { dist: config.webDist });
  return app;
}

/** Per-route rate limit options, lifted entirely when RATE_LIMIT=off. */
export function rateLimit(app: FastifyInstance, max: number, timeWindow: string) {
  return app.config.rateLimit ? { rateLimit: { max, timeWindow } } : { rateLimit: false as const };
}
