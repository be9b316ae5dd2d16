import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyCors from '@fastify/cors';

/**
 * CORS for third-party clients (DESIGN §6.1): with CORS_ORIGINS set, browsers on those origins may call `/api`
 * (Socket.IO is opened to them in the realtime plugin); unset, no Access-Control-* header is ever sent and only our
 * own origin can read the API. Bearer tokens, not cookies: no credentials are involved.
 */
export const corsPlugin = fp(
  async function corsPlugin(app: FastifyInstance) {
    const origins = app.config.corsOrigins;
    if (origins.length === 0) return;
    await app.register(fastifyCors, {
      delegator: (request, done) => {
        if (!(request.url ?? '').startsWith('/api/')) return done(null, { origin: false });
        done(null, {
          origin: origins,
          methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
          allowedHeaders: ['authorization', 'content-type', 'idempotency-key'],
          exposedHeaders: ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
          maxAge: 600,
        });
      },
    });
  },
  { name: 'cors', dependencies: ['security'] },
);
